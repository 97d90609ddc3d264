#ifndef LNOTE_FILE_NAMES_H
#define LNOTE_FILE_NAMES_H
#include <dirent.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
/// File names as bytes (Spec/format.md D-035). A name that is UTF-8 and holds none of the 128
/// code points U+10FF80 ... U+10FFFF is its own text; in any other name every byte b >= 0x80
/// is shown as the code point U+10FF00 + b, so the text gives back exactly the bytes.

/// 1 when the NUL-terminated `name` holds the UTF-8 lead of U+10FF80 ... U+10FFFF (F4 8F BE or
/// F4 8F BF), else 0.
int lnote_name_has_reserved(const char *name);
/// Writes the text of the NUL-terminated `name` with every byte b >= 0x80 as U+10FF00 + b to
/// `out` (room for 4 * strlen(name) bytes), as UTF-8. Returns its length.
size_t lnote_name_escaped(const char *name, uint8_t *out);
/// Rewrites the NUL-terminated text `s` (UTF-8) in place as the bytes it stands for, with a
/// NUL after them: each U+10FF80 ... U+10FFFF becomes its one byte, the rest is kept.
void lnote_name_bytes(char *s);
/// The system calls `SystemCall` makes on a path given as text, by the path's bytes: the text
/// is mapped as `lnote_name_bytes` does, on the stack (a path without U+10FF80 ... U+10FFFF is
/// passed as it is). `lnote_path_call` returns what the call returns, with `errno` as it set it.
enum {
    LNOTE_PATH_OPEN,   // open(path, arg, 0644)
    LNOTE_PATH_LSTAT,  // lstat(path, info)
    LNOTE_PATH_RENAME, // rename(path, other)
    LNOTE_PATH_UNLINK, // unlink(path)
    LNOTE_PATH_RMDIR,  // rmdir(path)
    LNOTE_PATH_MKDIR,  // mkdir(path, 0755)
    LNOTE_PATH_CLONE,  // lnote_clone_bytes(path, other) (clone.h)
};
long lnote_path_call(int call, const char *path, const char *other, int arg, struct stat *info);
/// opendir(3) on a path given as text, by its bytes.
DIR *lnote_opendir(const char *path);
#endif
