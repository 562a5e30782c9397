import Foundation
import Synchronization

/// What the non-UI extension reports from `status`: whether Wallet should list the issuer
/// and whether it must authenticate the user first (PassKit's class of the same name).
///
/// Create one, set the three properties, pass it to the completion handler. The properties
/// are guarded by a lock, so the status may be built on one thread and completed on another.
open class PKIssuerProvisioningExtensionStatus: NSObject, @unchecked Sendable {
    // @unchecked: open like PassKit's class; its own state is behind the lock.
    private struct Flags {
        var passEntriesAvailable = false
        var remotePassEntriesAvailable = false
        var requiresAuthentication = false
    }

    private let flags = Mutex(Flags())

    /// A status with every property `false`.
    public override init() {}

    /// There are cards the user can add to this iPhone.
    open var passEntriesAvailable: Bool {
        get { flags.withLock { $0.passEntriesAvailable } }
        set { flags.withLock { $0.passEntriesAvailable = newValue } }
    }

    /// There are cards the user can add to the paired Apple Watch.
    open var remotePassEntriesAvailable: Bool {
        get { flags.withLock { $0.remotePassEntriesAvailable } }
        set { flags.withLock { $0.remotePassEntriesAvailable = newValue } }
    }

    /// Wallet must run the UI extension's authorization before asking for entries.
    open var requiresAuthentication: Bool {
        get { flags.withLock { $0.requiresAuthentication } }
        set { flags.withLock { $0.requiresAuthentication = newValue } }
    }

    /// Equal to another status with the same three properties. (PassKit compares statuses by
    /// identity, which is why the guide's unit tests add this comparison in an extension; an
    /// `override` in an extension does not compile off Apple platforms, so it is built in.)
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PKIssuerProvisioningExtensionStatus else { return false }
        return other.passEntriesAvailable == passEntriesAvailable
            && other.remotePassEntriesAvailable == remotePassEntriesAvailable
            && other.requiresAuthentication == requiresAuthentication
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(passEntriesAvailable)
        hasher.combine(remotePassEntriesAvailable)
        hasher.combine(requiresAuthentication)
        return hasher.finalize()
    }
}
