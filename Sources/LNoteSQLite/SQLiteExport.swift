import LNoteFormat
import LNoteStore

/// Export of packages to the level-2 SQLite database (Spec/sqlite.md).
///
/// Each document is read read-only from its package, written in one transaction (WAL,
/// synchronous=FULL: durable when its COMMIT returns, Q-040), then read back from the
/// database and compared with the package (Q-050 ... Q-052). A document the database already
/// holds equal to its package is left as it is, so a rerun after an interruption
/// finishes the job without rewriting what was done.
public enum SQLiteExport {
    /// Exports every package in `packages` (package folders) to the database at `database`
    /// (created if missing). `progress` is called after each document. Throws only when the
    /// database cannot be opened or is not an LNote database; a package that fails is reported
    /// in its result and the others go on.
    public static func export(
        packages: [String], to database: String,
        progress: ((SQLiteTransferProgress) -> Void)? = nil
    ) async throws -> SQLiteTransferReport {
        let db = try SQLiteConnection(path: database, create: true)
        try SQLiteSchema.prepare(db)
        let writer = try DatabaseContentWriter(db)
        let reader = try DatabaseContentReader(db)
        var report = SQLiteTransferReport(
            direction: "export", database: database, sqliteVersion: SQLiteConnection.libraryVersion)
        let clock = ContinuousClock(), start = clock.now
        var seen = Set<UUIDBytes>()
        for path in packages {
            var result = SQLiteTransferReport.DocumentResult(status: "failed", source: path, payloadBytes: 0)
            do {
                // assets by their sizes; their bytes stream from the package's files.
                let content = try await PackageContentReader.read(path: path, assetBytes: false)
                result.id = content.id.description
                guard seen.insert(content.id).inserted else {
                    throw SQLiteContentError("document \(content.id) is also in an earlier package of this export")
                }
                result = try exportOne(content, result, writer: writer, reader: reader, source: AssetSource(db: db))
            } catch {
                result.error = "\(error)"
            }
            report.documents.append(result)
            report.payloadBytes += result.payloadBytes
            progress?(
                SQLiteTransferProgress(
                    documentsDone: report.documents.count, documentsTotal: packages.count,
                    payloadBytes: report.payloadBytes, seconds: seconds(clock.now - start)))
        }
        try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        report.seconds = seconds(clock.now - start)
        report.megabytesPerSecond = report.seconds > 0 ? Double(report.payloadBytes) / 1e6 / report.seconds : 0
        return report
    }

    /// Writes one document unless the database already holds it equal, then verifies.
    static func exportOne(
        _ content: DocumentContent, _ base: SQLiteTransferReport.DocumentResult,
        writer: DatabaseContentWriter, reader: DatabaseContentReader, source: AssetSource
    ) throws -> SQLiteTransferReport.DocumentResult {
        var result = base
        if let existing = try? reader.read(content.id, assetBytes: false) {
            let check = verify(content, stored: existing, source: source)
            if check.isEqual {
                result.status = "unchanged"
                result.verification = check
                return result
            }
        }
        try writer.write(content)
        result.payloadBytes = content.payloadBytes
        guard let stored = try reader.read(content.id, assetBytes: false) else {
            throw SQLiteContentError("document \(content.id) is missing from the database after its COMMIT")
        }
        let check = verify(content, stored: stored, source: source)
        result.verification = check
        result.status = check.isEqual ? "exported" : "mismatch"
        return result
    }

    /// Q-050's comparison of the package's `content` with the database's `stored`, both with
    /// assets by their sizes: each asset's file is compared with its row a chunk at a time
    /// . An asset that cannot be read is a difference.
    static func verify(
        _ content: DocumentContent, stored: DocumentContent, source: AssetSource,
        fs: any FileSystem = POSIXFileSystem.shared
    ) -> DocumentVerification {
        var check = ContentComparison.verify(expected: content, actual: stored)
        let rows = Dictionary(stored.assets.map { ("\($0.id).\($0.ext)", $0.blobRow) }, uniquingKeysWith: { a, _ in a })
        for asset in content.assets {
            guard let path = asset.filePath, case let row?? = rows["\(asset.id).\(asset.ext)"] else { continue }
            let same = (try? source.matches(row: row, path: path, fs: fs)) ?? false
            if !same { check.differences.append("asset \(asset.id).\(asset.ext): bytes differ") }
        }
        return check
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

/// Import of a level-2 database back into packages (Spec/sqlite.md section 5).
public enum SQLiteImport {
    /// Writes every document of the database at `database` as a package in the library folder
    /// `folder` (created if missing), then re-reads the package and compares it with the
    /// database. A package of that id already in the folder is never overwritten: if
    /// equal it is `unchanged`, otherwise the document `failed`.
    public static func importDatabase(
        _ database: String, to folder: String,
        progress: ((SQLiteTransferProgress) -> Void)? = nil
    ) async throws -> SQLiteTransferReport {
        let db = try openForReading(database)
        let reader = try DatabaseContentReader(db)
        var report = SQLiteTransferReport(
            direction: "import", database: database, sqliteVersion: SQLiteConnection.libraryVersion)
        let clock = ContinuousClock(), start = clock.now
        let fs = POSIXFileSystem.shared
        if try fs.entryKind(folder) != nil { StagingFolder.removeLeftovers(fs: fs, folder: folder) }
        let rows = try reader.documentRows()
        let source = AssetSource(db: db)
        var firstRow: [UUIDBytes: Int64] = [:]
        for (row, uuid) in rows {
            var result = SQLiteTransferReport.DocumentResult(
                status: "failed", source: "\(database) documents row \(row)",
                id: uuid?.description, payloadBytes: 0)
            do {
                // each row is one document, named by its row id; a bad one fails alone.
                guard let id = uuid else {
                    throw SQLiteContentError("documents row \(row): uuid is not 16 bytes (Q-060)")
                }
                if let first = firstRow[id] {
                    throw SQLiteContentError(
                        "documents row \(row) repeats uuid \(id) of row \(first); a document is one row, "
                            + "this one is not imported (Q-063)")
                }
                firstRow[id] = row
                // assets by their sizes; their bytes stream from the database when written
                // and are compared with the package's files a chunk at a time.
                guard let content = try reader.read(row: row, id: id, assetBytes: false) else {
                    throw SQLiteContentError("document \(id) vanished")
                }
                if let path = try existingPackage(id, in: folder, fs: fs) {
                    let check = try await verify(content, package: path, source: source, fs: fs)
                    result.verification = check
                    guard check.isEqual else {
                        throw SQLiteContentError(
                            "\(path) exists and differs from the database; not overwritten (Q-061)")
                    }
                    result.status = "unchanged"
                } else {
                    let written = try await BlockingIO.run {
                        try PackageContentWriter.write(content, folder: folder, source: source)
                    }
                    result.payloadBytes = content.payloadBytes
                    let check = try await verify(content, package: written, source: source, fs: fs)
                    result.verification = check
                    result.status = check.isEqual ? "imported" : "mismatch"
                }
            } catch let error as SQLiteContentError {
                result.error =
                    error.description.hasPrefix("documents row") ? error.description : "documents row \(row): \(error)"
            } catch {
                result.error = "documents row \(row): \(error)"
            }
            report.documents.append(result)
            report.payloadBytes += result.payloadBytes
            progress?(
                SQLiteTransferProgress(
                    documentsDone: report.documents.count, documentsTotal: rows.count,
                    payloadBytes: report.payloadBytes, seconds: SQLiteExport.seconds(clock.now - start)))
        }
        report.seconds = SQLiteExport.seconds(clock.now - start)
        report.megabytesPerSecond = report.seconds > 0 ? Double(report.payloadBytes) / 1e6 / report.seconds : 0
        return report
    }
}

extension SQLiteImport {
    /// The package of document `id` in `folder`: `<id>.lnote` with the uuid in any case (D-001,
    /// as a library lists it), the lowercase name first. Nil when there is none.
    static func existingPackage(_ id: UUIDBytes, in folder: String, fs: any FileSystem) throws -> String? {
        let lower = joinPath(folder, PackageLayout.folderName(id))
        if try fs.entryKind(lower) != nil { return lower }
        guard case .directory? = try fs.entryKind(folder) else { return nil }
        let name = try io { try fs.list(folder) }.sorted().first { $0.lowercased() == PackageLayout.folderName(id) }
        return name.map { joinPath(folder, $0) }
    }

    /// Q-061's comparison of the database's `content` (assets by their sizes) with the
    /// package at `path`, each asset's bytes compared with its row a chunk at a time.
    static func verify(
        _ content: DocumentContent, package path: String, source: AssetSource,
        fs: any FileSystem
    ) async throws -> DocumentVerification {
        var check = ContentComparison.verify(
            expected: content, actual: try await PackageContentReader.read(path: path, assetBytes: false))
        let differing = try await BlockingIO.run { () throws -> [String] in
            let layout = PackageLayout(root: path)
            // The package's file of each asset, its uuid in any case (D-040), as the reader found it.
            var files: [String: String] = [:]
            if case .directory? = try fs.entryKind(layout.assetsDirectory) {
                for name in try io({ try fs.list(layout.assetsDirectory) }).sorted() {
                    guard let (id, ext) = PackageLayout.parseAssetName(name) else { continue }
                    let key = "\(id).\(ext)"
                    if files[key] == nil || name == key { files[key] = name }
                }
            }
            return try content.assets.compactMap { asset in
                // missing: counted above
                guard let row = asset.blobRow, let name = files["\(asset.id).\(asset.ext)"] else { return nil }
                let file = joinPath(layout.assetsDirectory, name)
                return try source.matches(row: row, path: file, fs: fs) ? nil : "asset \(name): bytes differ"
            }
        }
        check.differences += differing
        return check
    }

    /// Opens the database read-only: the import writes nothing to it, so a database the
    /// user may read but not write imports. A write-ahead-log database in a folder the user
    /// cannot write is opened immutable when it has no log to replay, and refused with the
    /// reason when it has one.
    static func openForReading(_ database: String) throws -> SQLiteConnection {
        let db = try SQLiteConnection(path: database, create: false, readOnly: true)
        do {
            try SQLiteSchema.check(db)
            return db
            // SQLITE_READONLY, SQLITE_CANTOPEN
        } catch let error as SQLiteError where [8, 14].contains(error.code & 0xFF) {
            if case .file(let size)? = try? POSIXFileSystem.shared.kind(database + "-wal"), size > 0 {
                throw SQLiteError(
                    code: error.code,
                    message: "\(database): its write-ahead log \(database)-wal must be "
                        + "replayed, which needs a folder this user can write; copy both files to one (\(error.message))"
                )
            }
            let still = try SQLiteConnection(path: database, create: false, readOnly: true, immutable: true)
            try SQLiteSchema.check(still)
            return still
        }
    }
}
