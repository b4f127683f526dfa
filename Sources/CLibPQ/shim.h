#ifndef VOCAB_CLIBPQ_SHIM_H
#define VOCAB_CLIBPQ_SHIM_H

#include <libpq-fe.h>

#endif
