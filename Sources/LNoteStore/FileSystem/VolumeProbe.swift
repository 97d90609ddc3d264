/// What a volume allows, asked by trying it in a folder (tests use it to skip what a volume
/// cannot hold: macOS volumes are case-insensitive by default, APFS refuses names that are not
/// UTF-8 with EILSEQ). Each probe makes one scratch entry in `folder` and removes it.
package enum VolumeProbe {
    /// False when `folder`'s volume treats two spellings that differ in case as one name.
    package static func namesAreCaseSensitive(
        in folder: String, fileSystem fs: any FileSystem = POSIXFileSystem.shared
    ) throws -> Bool {
        let lower = joinPath(folder, ".lnote-case-probe-\(UInt32.random(in: 0 ... .max))")
        try fs.close(try fs.open(lower, [.create, .exclusive]))
        defer { try? fs.remove(lower) }
        let upper = joinPath(folder, lastComponent(lower).uppercased())
        return try fs.kind(upper) == nil
    }

    /// False when `folder`'s volume refuses a name that is not UTF-8 (APFS: EILSEQ). Names
    /// are bytes (D-035): U+10FFFF stands for the byte 0xFF.
    package static func acceptsNonUTF8Names(
        in folder: String, fileSystem fs: any FileSystem = POSIXFileSystem.shared
    ) throws -> Bool {
        let name = joinPath(folder, ".lnote-utf8-probe-\u{10FFFF}\(UInt32.random(in: 0 ... .max))")
        do {
            try fs.makeDirectory(name)
        } catch let e as FileSystemError where e.errno == FileSystemErrno.illegalByteSequence {
            return false
        }
        try? fs.remove(name)
        return true
    }
}
