#define _GNU_SOURCE
#include <fcntl.h>
#include <errno.h>
#include "CFileSpace.h"

int staysearch_punch_hole(int fd, long long offset, long long length) {
#if defined(__linux__) && defined(FALLOC_FL_PUNCH_HOLE)
    return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length);
#else
    (void)fd; (void)offset; (void)length;
    errno = EOPNOTSUPP;
    return -1;
#endif
}
