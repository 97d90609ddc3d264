#include "file_names.h"
#include "clone.h"
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((minsize, nouwtable)) int lnote_name_has_reserved(const char *name) {
    for (const uint8_t *p = (const uint8_t *)name; *p; p++) {
        if (p[0] == 0xF4 && p[1] == 0x8F && (p[2] | 1) == 0xBF) return 1; // F4 8F BE or F4 8F BF
    }
    return 0;
}

__attribute__((minsize, nouwtable)) size_t lnote_name_escaped(const char *name, uint8_t *out) {
    uint8_t *o = out;
    for (const uint8_t *in = (const uint8_t *)name; *in; in++) {
        uint8_t b = *in;
        if (b < 0x80) {
            *o++ = b;
        } else { // U+10FF00 + b is F4 8F (BC | b >> 6) (80 | b & 3F)
            *o++ = 0xF4;
            *o++ = 0x8F;
            *o++ = (uint8_t)(0xBC | (b >> 6));
            *o++ = (uint8_t)(0x80 | (b & 0x3F));
        }
    }
    return (size_t)(o - out);
}

// Writes the bytes the text at `in` stands for to `out` (room for `room` bytes, its NUL
// included), which may be `in` (they are never longer). 0 when they do not fit, else 1.
__attribute__((minsize, nouwtable)) static int name_bytes(uint8_t *out, size_t room, const uint8_t *in) {
    uint8_t *end = out + room - 1;
    while (*in) {
        if (out == end) return 0;
        if (in[0] == 0xF4 && in[1] == 0x8F && (in[2] | 1) == 0xBF && (in[3] & 0xC0) == 0x80) {
            *out++ = (uint8_t)(((in[2] & 0x03) << 6) | (in[3] & 0x3F));
            in += 4;
        } else {
            *out++ = *in++;
        }
    }
    *out = 0;
    return 1;
}

__attribute__((minsize, nouwtable)) void lnote_name_bytes(char *s) {
    name_bytes((uint8_t *)s, strlen(s) + 1, (const uint8_t *)s);
}

// Room for a path's bytes, its NUL included: the kernel refuses longer paths (PATH_MAX), so
// a text whose bytes do not fit is passed as it is, for the kernel to refuse.
enum { PATH_BYTES = 4096 };

// `path`'s bytes (D-035): `path` itself when it holds none of U+10FF80 ... U+10FFFF, else its
// bytes in `buffer` (PATH_BYTES).
__attribute__((minsize, noinline, nouwtable)) static const char *raw(const char *path, char *buffer) {
    if (!lnote_name_has_reserved(path) || !name_bytes((uint8_t *)buffer, PATH_BYTES, (const uint8_t *)path))
        return path;
    return buffer;
}

__attribute__((minsize, nouwtable)) long lnote_path_call(int call, const char *path, const char *other, int arg,
                                                         struct stat *info) {
    char a[PATH_BYTES], b[PATH_BYTES];
    const char *p = raw(path, a);
    switch (call) {
    case LNOTE_PATH_OPEN:
        return open(p, arg, 0644);
    case LNOTE_PATH_LSTAT:
        return lstat(p, info);
    case LNOTE_PATH_RENAME:
        return rename(p, raw(other, b));
    case LNOTE_PATH_UNLINK:
        return unlink(p);
    case LNOTE_PATH_RMDIR:
        return rmdir(p);
    case LNOTE_PATH_CLONE:
        return lnote_clone_bytes(p, raw(other, b));
    default:
        return mkdir(p, 0755);
    }
}

__attribute__((minsize, nouwtable)) DIR *lnote_opendir(const char *path) {
    char a[PATH_BYTES];
    return opendir(raw(path, a));
}
