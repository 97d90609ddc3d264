// Write-back pacing for large writes (the snapshot a compaction writes): Linux's
// sync_file_range starts write-back of a range without waiting, or waits for a range's
// write-back, so a large file reaches the disk in small steps and its final fdatasync has
// little left to flush (RocksDB's bytes_per_sync). Not a durability operation: it syncs no
// metadata and flushes no drive cache. Elsewhere these calls do nothing and return 0.
#if defined(__linux__)
#  define _GNU_SOURCE
#  include <fcntl.h>
#endif
#include "writeback.h"

int lnote_writeback_supported(void) {
#if defined(__linux__)
    return 1;
#else
    return 0;
#endif
}

int lnote_writeback_start(int fd, int64_t offset, int64_t count) {
#if defined(__linux__)
    return sync_file_range(fd, offset, count, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd;
    (void)offset;
    (void)count;
    return 0;
#endif
}

int lnote_writeback_wait(int fd, int64_t offset, int64_t count) {
#if defined(__linux__)
    return sync_file_range(fd, offset, count,
                           SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
#else
    (void)fd;
    (void)offset;
    (void)count;
    return 0;
#endif
}
