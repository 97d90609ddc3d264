// File clones for assets shared between documents (Spec/format.md D-046): the copy of a
// 100 MB PDF costs no bytes on a volume that clones, and no pass through user memory on
// Linux volumes that can only copy in the kernel.
#if defined(__linux__)
#  define _GNU_SOURCE
#  include <linux/fs.h>
#  include <sys/ioctl.h>
#endif
#include "clone.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__APPLE__)
#  include <sys/clonefile.h>
#endif

#if defined(__linux__)
// The errors that say the kernel cannot do it for these two files (another volume, a file
// system without the call): the caller copies instead.
static int unsupported(int code) {
    return code == EOPNOTSUPP || code == ENOTSUP || code == EXDEV || code == EINVAL || code == ENOSYS ||
           code == ENOTTY || code == EBADF;
}

// Copies `size` bytes of `src` to `dst` with copy_file_range: 2 done, 0 not possible (nothing
// written), -1 failed.
static int kernel_copy(int src, int dst, off_t size) {
    off_t done = 0;
    while (done < size) {
        ssize_t n = copy_file_range(src, NULL, dst, NULL, (size_t)(size - done), 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return done == 0 && unsupported(errno) ? 0 : -1;
        }
        if (n == 0) break; // the source shrank: what is there is copied
        done += n;
    }
    return 2;
}
#endif

int lnote_clone_bytes(const char *from, const char *to) {
#if defined(__APPLE__)
    struct stat st;
    if (lstat(from, &st) != 0) return -1;
    if (!S_ISREG(st.st_mode)) {
        errno = EINVAL;
        return -1;
    }
    if (clonefile(from, to, CLONE_NOFOLLOW) == 0) return 1;
    return errno == ENOTSUP || errno == EXDEV ? 0 : -1;
#elif defined(__linux__)
    int src = open(from, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (src < 0) return -1;
    struct stat st;
    if (fstat(src, &st) != 0 || !S_ISREG(st.st_mode)) {
        int code = S_ISREG(st.st_mode) ? errno : EINVAL;
        close(src);
        errno = code;
        return -1;
    }
    int dst = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (dst < 0) {
        int code = errno;
        close(src);
        errno = code;
        return -1;
    }
    int result;
    if (ioctl(dst, FICLONE, src) == 0) {
        result = 1;
    } else if (!unsupported(errno)) {
        result = -1;
    } else if ((off_t)st.st_blocks * 512 < st.st_size) {
        result = 0; // holes: an in-kernel copy would write them as zeros; the caller keeps them
    } else {
        result = kernel_copy(src, dst, st.st_size);
    }
    int code = errno;
    close(src);
    if (close(dst) != 0 && result > 0) {
        code = errno;
        result = -1;
    }
    if (result <= 0) unlink(to);
    errno = code;
    return result;
#else
    (void)from;
    (void)to;
    return 0;
#endif
}
