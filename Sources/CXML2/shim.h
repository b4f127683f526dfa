#ifndef VOCAB_CXML2_SHIM_H
#define VOCAB_CXML2_SHIM_H

// Debian's libxml2, loaded when a workbook is first read (dlopen), not at every command's
// start: it brings ICU (libicuuc and its 30 MB of data), liblzma and zlib. Swift calls
// `vocab_xml…`, each the function of that name found on first use. Only the reader API Vocab
// uses is declared here, as libxml2 2.9 defines it (its own headers need pkg-config's include
// path, which would link it).
#include "../CLazyLibrary/lazy_library.h"

typedef unsigned char xmlChar;
typedef struct _xmlTextReader *xmlTextReaderPtr;
typedef void *xmlTextReaderLocatorPtr;
typedef int (*xmlInputReadCallback)(void *context, char *buffer, int len);
typedef int (*xmlInputCloseCallback)(void *context);
typedef void (*xmlTextReaderErrorFunc)(void *arg, const char *msg, int severity, xmlTextReaderLocatorPtr locator);

typedef enum {
    XML_PARSE_NOERROR = 1 << 5,
    XML_PARSE_NOWARNING = 1 << 6,
    XML_PARSE_NONET = 1 << 11,
} xmlParserOption;

typedef enum {
    XML_READER_TYPE_ELEMENT = 1,
    XML_READER_TYPE_TEXT = 3,
    XML_READER_TYPE_CDATA = 4,
    XML_READER_TYPE_ENTITY_REFERENCE = 5,
    XML_READER_TYPE_ENTITY = 6,
    XML_READER_TYPE_DOCUMENT_TYPE = 10,
    XML_READER_TYPE_WHITESPACE = 13,
    XML_READER_TYPE_SIGNIFICANT_WHITESPACE = 14,
    XML_READER_TYPE_END_ELEMENT = 15,
} xmlReaderTypes;

VOCAB_LAZY_LIBRARY(libxml2, "libxml2.so.2")
#define VOCAB_XML(ret, name, params, ...) VOCAB_LAZY_FUNCTION(vocab_libxml2, ret, name, params, __VA_ARGS__)
#define VOCAB_XML_VOID(name, params, ...) VOCAB_LAZY_VOID_FUNCTION(vocab_libxml2, name, params, __VA_ARGS__)

VOCAB_XML(xmlTextReaderPtr _Nullable, xmlReaderForIO,
          (xmlInputReadCallback _Nullable read, xmlInputCloseCallback _Nullable close, void *_Nullable context,
           const char *_Nullable url, const char *_Nullable encoding, int options),
          read, close, context, url, encoding, options)
VOCAB_XML_VOID(xmlTextReaderSetErrorHandler, (xmlTextReaderPtr _Nonnull reader, xmlTextReaderErrorFunc _Nullable handler, void *_Nullable arg),
               reader, handler, arg)
VOCAB_XML_VOID(xmlFreeTextReader, (xmlTextReaderPtr _Nonnull reader), reader)
VOCAB_XML(int, xmlTextReaderRead, (xmlTextReaderPtr _Nonnull reader), reader)
VOCAB_XML(int, xmlTextReaderNodeType, (xmlTextReaderPtr _Nonnull reader), reader)
VOCAB_XML(int, xmlTextReaderIsEmptyElement, (xmlTextReaderPtr _Nonnull reader), reader)
VOCAB_XML(const xmlChar *_Nullable, xmlTextReaderConstLocalName, (xmlTextReaderPtr _Nonnull reader), reader)
VOCAB_XML(const xmlChar *_Nullable, xmlTextReaderConstValue, (xmlTextReaderPtr _Nonnull reader), reader)
VOCAB_XML(int, xmlTextReaderMoveToAttribute, (xmlTextReaderPtr _Nonnull reader, const xmlChar *_Nonnull name), reader, name)
VOCAB_XML(int, xmlTextReaderMoveToElement, (xmlTextReaderPtr _Nonnull reader), reader)

#endif
