import WalletWire

/// Kinds of passes in the pass library (`PKPassType`).
public enum PKPassType: Int, Sendable, Hashable {
    case barcode = 0
    /// Payment and access cards stored in a secure element.
    case secureElement = 1
    case any = 255
}

/// A pass in the user's pass library (`PKPass`), as the host's simulated device reports it.
public class PKPass: @unchecked Sendable {
    // @unchecked: not final (PKSecureElementPass subclasses it), but every stored property
    // is an immutable `let` of a Sendable type, and the class cannot be subclassed outside
    // the SDK.

    /// The name of the device holding the pass, e.g. `iPhone` or `Apple Watch`.
    public let deviceName: String
    /// True for a pass on a paired device (the Apple Watch) rather than this iPhone.
    public let isRemotePass: Bool

    init(deviceName: String, isRemotePass: Bool) {
        self.deviceName = deviceName
        self.isRemotePass = isRemotePass
    }

    /// The pass as a secure-element pass, or nil for other kinds.
    public var secureElementPass: PKSecureElementPass? { self as? PKSecureElementPass }
}

/// A payment or access card in a secure element (`PKSecureElementPass`).
public final class PKSecureElementPass: PKPass, @unchecked Sendable {
    /// The account identifier the card was added with (FPAN ID).
    public let primaryAccountIdentifier: String
    /// The last digits of the card number.
    public let primaryAccountNumberSuffix: String

    init(_ wire: WireSecureElementPass) {
        primaryAccountIdentifier = wire.primaryAccountIdentifier
        primaryAccountNumberSuffix = wire.primaryAccountNumberSuffix
        super.init(deviceName: wire.deviceName, isRemotePass: wire.isRemotePass)
    }
}

/// The user's pass library (`PKPassLibrary`), answered by the host's simulated device
/// over the `passLibrary.passes` service.
///
/// Synchronous like PassKit's: the calling thread waits for the host. The async overloads
/// do not block a thread.
public final class PKPassLibrary: Sendable {
    public init() {}

    /// The passes of `passType` on this iPhone and on the paired Apple Watch (tell them
    /// apart with ``PKPass/isRemotePass``).
    ///
    /// Like PassKit, this never fails: when the host cannot answer (or the process does not
    /// run under wallet-host) it logs the reason to stderr and returns an empty list.
    public func passes(of passType: PKPassType) -> [PKPass] {
        guard let params = Self.params(for: passType) else { return [] }
        do {
            let passes = try HostServiceCall.send(WireMethod.passLibraryPasses, params: params,
                                                  expecting: [WireSecureElementPass].self)
            return passes.map(PKSecureElementPass.init)
        } catch {
            Diagnostics.log("PKPassLibrary.passes(of:) returns no passes: \(error)")
            return []
        }
    }

    /// The async form of ``passes(of:)``.
    public func passes(of passType: PKPassType) async -> [PKPass] {
        guard let params = Self.params(for: passType) else { return [] }
        do {
            let passes = try await HostServiceCall.send(WireMethod.passLibraryPasses, params: params,
                                                        expecting: [WireSecureElementPass].self)
            return passes.map(PKSecureElementPass.init)
        } catch {
            Diagnostics.log("PKPassLibrary.passes(of:) returns no passes: \(error)")
            return []
        }
    }

    /// Secure-element passes on the paired Apple Watch (`remoteSecureElementPasses`).
    public var remoteSecureElementPasses: [PKSecureElementPass] {
        passes(of: .secureElement).compactMap { $0.isRemotePass ? $0.secureElementPass : nil }
    }

    /// The host only keeps secure-element passes; barcode passes are never there.
    private static func params(for passType: PKPassType) -> PassLibraryPassesParams? {
        passType == .barcode ? nil : PassLibraryPassesParams(passType: "secureElement")
    }
}
