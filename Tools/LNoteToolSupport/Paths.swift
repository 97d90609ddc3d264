#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// `path` made absolute against the current folder.
package func absolutePath(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    return FileManager.default.currentDirectoryPath + "/" + path
}

/// The running executable's absolute path (for starting a child of the same tool, and for
/// finding what ships beside it).
package func executablePath() -> String {
    #if os(Linux)
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    if n > 0 { return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    #endif
    return absolutePath(CommandLine.arguments.first ?? "lnote")
}

/// A new folder `<prefix>XXXXXX` in `parent` (mkdtemp), for the demo's and the bench's scratch files.
package func makeTemporaryFolder(in parent: String, prefix: String) throws -> String {
    var template = Array((parent + "/" + prefix + "XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> Bool in
        guard let base = buffer.baseAddress else { return false }
        return mkdtemp(base) != nil
    }
    guard made else { throw OperationalError("cannot create a temporary folder in \(parent): errno \(errno)") }
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
