#ifndef VOCAB_CZSTD_SHIM_H
#define VOCAB_CZSTD_SHIM_H

#include <zstd.h>

#endif
