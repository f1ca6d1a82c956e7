#ifndef STAYSEARCH_CFILESPACE_H
#define STAYSEARCH_CFILESPACE_H

/// Gives back the disk blocks (and cached pages) of `length` bytes at `offset` of the open file `fd`,
/// keeping its size: Linux's fallocate with FALLOC_FL_PUNCH_HOLE, which Swift's Glibc module does not
/// show (it is a GNU extension). Returns 0, or -1 with errno set (a file system that cannot punch holes
/// says EOPNOTSUPP).
int staysearch_punch_hole(int fd, long long offset, long long length);

#endif
