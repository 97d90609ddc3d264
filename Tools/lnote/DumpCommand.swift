import LNoteCheck
import Foundation
import LNoteFormat
import LNoteStore
import LNoteToolSupport
import LNoteDiagnostics

/// `lnote dump FILE`: one line per frame of a journal or snapshot, with damage in place.
enum DumpCommand: Command {
    static let name = "dump"
    static let abstract = "List the frames of a journal or snapshot, or the pages of a package."
    static let usage = "lnote dump FILE|PACKAGE [--page ID|INDEX] [--json]"
    static let discussion = """
        For a journal (.journal) or snapshot (.content): one line per frame with its offset,
        sequence, type, payload length and CRC status, and one line per finding (torn tail,
        corruption) at its offset. For a package: its pages, each with its element count and
        element ids in order (--page narrows to one page).

        Options:
          --page ID|INDEX   only this page of a package
          --json            machine-readable output
        """

    struct FrameLine: Codable {
        var offset: Int
        var sequence: UInt64?
        var type: String
        var length: Int
        var status: String
    }

    struct FileDump: Codable {
        var file: String
        var kind: String
        var header: [String: String]
        var headerStatus: String
        var frames: [FrameLine]
        var validEnd: Int
    }

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let json = arguments.flag("--json")
        let page = try arguments.option("--page")
        let rest = try arguments.positionals()
        guard rest.count == 1, let path = rest.first else { throw UsageError("dump takes exactly one FILE or PACKAGE") }
        let absolute = absolutePath(path)
        if case .directory? = try? POSIXFileSystem.shared.kind(absolute) {
            return try await PackageDump.run(path: absolute, page: page, json: json)
        }
        if page != nil { throw UsageError("--page applies to a package") }
        let dump = try dumpFile(absolute)
        if json {
            print(try jsonString(dump))
        } else {
            print("\(dump.kind) \(TerminalSafeText.text(dump.file))")
            print(
                "header: \(dump.headerStatus) "
                    + dump.header.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
            print("offset      sequence  type               length  status")
            for f in dump.frames {
                let seq = f.sequence.map(String.init) ?? "-"
                print(
                    pad(String(f.offset), 10) + "  " + pad(seq, 8) + "  " + pad(f.type, 17) + "  "
                        + pad(String(f.length), 6) + "  " + f.status)
            }
            print("valid end: \(dump.validEnd)")
        }
        return ExitCode.ok
    }

    static func dumpFile(_ path: String) throws -> FileDump {
        let bytes: [UInt8]
        let fileSize: Int
        do {  // P-020: the zero tail past the last data is not held
            let read = try io { try POSIXFileSystem.shared.readBounded(path) }
            bytes = read.bytes
            fileSize = read.fileSize
        } catch {
            throw OperationalError("cannot read \(TerminalSafeText.text(path)): \(TerminalSafeText.text("\(error)"))")
        }
        let isSnapshot = bytes.starts(with: Array("LNOTESNP".utf8))
        var header: [String: String] = [:]
        var status = "valid"
        var salt: UInt64?
        var first: UInt64 = 1
        if isSnapshot {
            switch bytes.withUnsafeBytes({ SnapshotHeader.decode($0) }) {
            case .valid(let h): salt = h.salt; header = snapshotFields(h)
            case .damaged(let h, let reason):
                status = "damaged (\(reason))"
                if let h { salt = h.salt; header = snapshotFields(h) }
            }
        } else {
            switch bytes.withUnsafeBytes({ JournalHeader.decode($0) }) {
            case .valid(let h): salt = h.salt; first = h.firstSequence; header = journalFields(h)
            case .damaged(let h, let reason):
                status = "damaged (\(reason))"
                if let h { salt = h.salt; first = h.firstSequence; header = journalFields(h) }
            }
        }
        var lines: [FrameLine] = []
        var validEnd = 0
        if let salt, bytes.count >= 64 {
            let scan = bytes.withUnsafeBytes {
                FrameScanner.scan(
                    $0, from: 64, salt: salt, firstSequence: first, mode: .salvage,
                    fileSize: fileSize)
            }
            for f in scan.frames {
                lines.append(
                    FrameLine(
                        offset: f.offset, sequence: f.sequence, type: typeName(f.type),
                        length: f.endOffset - f.offset - FormatLimits.frameHeaderBytes, status: "ok"))
            }
            for f in scan.findings {
                lines.append(
                    FrameLine(
                        offset: f.offset, sequence: nil, type: "-", length: f.bytes,
                        status: (f.isTornTail ? "torn tail: " : "damaged: ") + f.kind.rawValue))
            }
            lines.sort { $0.offset < $1.offset }
            validEnd = scan.validEnd
        }
        return FileDump(
            file: path, kind: isSnapshot ? "snapshot" : "journal", header: header, headerStatus: status,
            frames: lines, validEnd: validEnd)
    }

    static func typeName(_ raw: UInt8) -> String {
        if let t = FrameType(rawValue: raw) { return "\(t)" }
        return FrameType.isCritical(raw) ? "critical(\(raw))" : "ancillary(\(raw))"
    }

    static func journalFields(_ h: JournalHeader) -> [String: String] {
        [
            "page": h.pageID.description, "base": String(h.baseGeneration), "firstSequence": String(h.firstSequence),
            "salt": String(h.salt, radix: 16)
        ]
    }

    static func snapshotFields(_ h: SnapshotHeader) -> [String: String] {
        [
            "page": h.pageID.description, "generation": String(h.generation), "nextSequence": String(h.nextSequence),
            "elementCount": String(h.elementCount), "salt": String(h.salt, radix: 16)
        ]
    }
}
