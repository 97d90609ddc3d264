#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
import Foundation
#endif

/// The Data Protection class the engine gives each file it creates on iOS, iPadOS,
/// tvOS, watchOS and visionOS (W-032). Elsewhere (macOS, Linux) files keep their volume's
/// default and this changes nothing.
public enum DataProtection: Sendable, Equatable {
    /// Leave the class the app's entitlement or the folder gives.
    case inherit
    /// Readable and writable from the first unlock after a restart on, also while the device
    /// is locked: background flushes, compactions and late saves keep working. The default.
    case completeUntilFirstUserAuthentication
    /// Files open when the device locks stay writable; new files (a journal, a snapshot)
    /// cannot be made until it is unlocked.
    case completeUnlessOpen
    /// Unreadable and unwritable from about ten seconds after the device locks: saves then
    /// fail with `protectedDataUnavailable` until it is unlocked.
    case complete

    /// The engine's default for page files and every other file of a package.
    public static let `default`: DataProtection = .completeUntilFirstUserAuthentication

    /// Sets the class of the file just created at `path`: FileManager's `protectionKey` on the
    /// platforms with Data Protection, nothing elsewhere. Best effort: where the volume has no
    /// Data Protection the file keeps its default, which is what the class would give.
    func apply(to path: String) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        let type: FileProtectionType
        switch self {
        case .inherit: return
        case .completeUntilFirstUserAuthentication: type = .completeUntilFirstUserAuthentication
        case .completeUnlessOpen: type = .completeUnlessOpen
        case .complete: type = .complete
        }
        try? FileManager.default.setAttributes([.protectionKey: type], ofItemAtPath: path)
        #endif
    }
}
