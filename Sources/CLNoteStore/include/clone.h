#ifndef LNOTE_CLONE_H
#define LNOTE_CLONE_H
/// Makes the new file `to` (created exclusively, mode 0644, no link followed) a copy of the
/// regular file `from`, both given by their bytes (call it through `lnote_path_call`'s
/// LNOTE_PATH_CLONE, which maps a path's text to its bytes, D-035). The copy shares the source's
/// blocks where the file system can clone (APFS clonefile(2), Linux ioctl FICLONE), else, on
/// Linux for a file without holes, is copied inside the kernel (copy_file_range(2)).
/// Returns 1 when the blocks are shared, 2 when copied in the kernel, 0 when neither is possible
/// here (nothing is created: the caller copies the bytes itself), -1 with errno set on failure
/// (nothing is left at `to`). A source that is not a regular file fails with EINVAL. The copy
/// is not synced.
int lnote_clone_bytes(const char *from, const char *to);
#endif
