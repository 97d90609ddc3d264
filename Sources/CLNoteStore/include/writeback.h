#ifndef LNOTE_WRITEBACK_H
#define LNOTE_WRITEBACK_H
#include <stdint.h>
/// Write-back pacing (writeback.c; Linux sync_file_range, elsewhere no-ops returning 0):
/// 1 when the calls do something on this platform.
int lnote_writeback_supported(void);
/// Starts write-back of `count` bytes at `offset` of `fd` without waiting (SYNC_FILE_RANGE_WRITE).
/// Returns 0, or -1 with errno set.
int lnote_writeback_start(int fd, int64_t offset, int64_t count);
/// Waits until the range's write-back is done, starting it first where needed (WAIT_BEFORE |
/// WRITE | WAIT_AFTER). Syncs no metadata and flushes no drive cache. Returns 0, or -1 with errno.
int lnote_writeback_wait(int fd, int64_t offset, int64_t count);
#endif
