extension FileSystem {
    /// Creates `folder` and every missing folder above it (`mkdir -p`), syncing each parent
    /// whose listing changed so the new folders survive power loss. What exists is left alone.
    package func makeDirectories(_ folder: String) throws {
        var missing: [String] = []
        var path = folder
        while try entryKind(path) == nil {
            missing.append(path)
            let parent = parentDirectory(of: path)
            if parent == path || parent.isEmpty { break }
            path = parent
        }
        for dir in missing.reversed() {
            try io { try makeDirectory(dir) }
            try io { try syncDirectory(parentDirectory(of: dir)) }
        }
    }
}
