#ifndef STAYSEARCH_CMALLOC_SHIM_H
#define STAYSEARCH_CMALLOC_SHIM_H
#include <malloc.h>

/// `M_MMAP_THRESHOLD` as a constant Swift can see.
static const int staysearch_m_mmap_threshold = M_MMAP_THRESHOLD;
#endif
