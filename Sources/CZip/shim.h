#ifndef VOCAB_CZIP_SHIM_H
#define VOCAB_CZIP_SHIM_H

#include <zip.h>

#endif
