#ifndef VOCAB_CLIBPQ_SHIM_H
#define VOCAB_CLIBPQ_SHIM_H

// Debian's libpq, loaded when the cloud is first used (dlopen), not at every start: with its
// Kerberos, LDAP, SASL and OpenSSL it is 24 of the libraries a command would otherwise map and
// relocate before doing anything. Swift calls `vocab_PQ…`, each the libpq function of that
// name found on first use. The header gives the types only (no -lpq).
#include <postgresql/libpq-fe.h>
#include "../CLazyLibrary/lazy_library.h"

VOCAB_LAZY_LIBRARY(libpq, "libpq.so.5")
#define VOCAB_PQ(ret, name, params, ...) VOCAB_LAZY_FUNCTION(vocab_libpq, ret, name, params, __VA_ARGS__)
#define VOCAB_PQ_VOID(name, params, ...) VOCAB_LAZY_VOID_FUNCTION(vocab_libpq, name, params, __VA_ARGS__)

VOCAB_PQ(PGconn *, PQconnectStartParams, (const char *const *keywords, const char *const *values, int expand), keywords, values, expand)
VOCAB_PQ(PostgresPollingStatusType, PQconnectPoll, (PGconn *conn), conn)
VOCAB_PQ(ConnStatusType, PQstatus, (const PGconn *conn), conn)
VOCAB_PQ(char *, PQerrorMessage, (const PGconn *conn), conn)
VOCAB_PQ_VOID(PQfinish, (PGconn *conn), conn)
VOCAB_PQ(PGVerbosity, PQsetErrorVerbosity, (PGconn *conn, PGVerbosity verbosity), conn, verbosity)
VOCAB_PQ(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *conn, PQnoticeProcessor processor, void *argument), conn, processor, argument)
VOCAB_PQ(int, PQsendQuery, (PGconn *conn, const char *query), conn, query)
VOCAB_PQ(int, PQsendQueryParams, (PGconn *conn, const char *command, int count, const Oid *types, const char *const *values,
                                  const int *lengths, const int *formats, int resultFormat),
         conn, command, count, types, values, lengths, formats, resultFormat)
VOCAB_PQ(PGresult *, PQgetResult, (PGconn *conn), conn)
VOCAB_PQ(int, PQisBusy, (PGconn *conn), conn)
VOCAB_PQ(int, PQconsumeInput, (PGconn *conn), conn)
VOCAB_PQ(int, PQsocket, (const PGconn *conn), conn)
VOCAB_PQ(char *, PQhost, (const PGconn *conn), conn)
VOCAB_PQ(char *, PQport, (const PGconn *conn), conn)
VOCAB_PQ(PGcancel *, PQgetCancel, (PGconn *conn), conn)
VOCAB_PQ(int, PQcancel, (PGcancel *cancel, char *buffer, int size), cancel, buffer, size)
VOCAB_PQ_VOID(PQfreeCancel, (PGcancel *cancel), cancel)
VOCAB_PQ_VOID(PQclear, (PGresult *result), result)
VOCAB_PQ(ExecStatusType, PQresultStatus, (const PGresult *result), result)
VOCAB_PQ(int, PQntuples, (const PGresult *result), result)
VOCAB_PQ(int, PQnfields, (const PGresult *result), result)
VOCAB_PQ(int, PQgetisnull, (const PGresult *result, int row, int field), result, row, field)
VOCAB_PQ(char *, PQgetvalue, (const PGresult *result, int row, int field), result, row, field)
VOCAB_PQ(char *, PQresultErrorMessage, (const PGresult *result), result)
VOCAB_PQ(char *, PQresultErrorField, (const PGresult *result, int code), result, code)
VOCAB_PQ(char *, PQencryptPasswordConn, (PGconn *conn, const char *password, const char *user, const char *algorithm),
         conn, password, user, algorithm)
VOCAB_PQ_VOID(PQfreemem, (void *pointer), pointer)

#endif
