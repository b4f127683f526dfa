#ifndef VOCAB_CXML2_SHIM_H
#define VOCAB_CXML2_SHIM_H

// Debian's libxml2 is built with ICU, and its encoding header then includes ICU's headers,
// whose types clash with the ICU inside Swift's Foundation. Vocab uses none of libxml2's ICU
// API, so the headers are read as if it were built without.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>

#endif
