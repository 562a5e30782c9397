/// The host -> extension requests of the wire protocol (docs/PROTOCOL.md sections 6 and 7), one
/// typed entry each: the one place that says which methods exist, who answers them, and with
/// which params and result types.
///
/// The SDK dispatches by it and lists its role's calls in `initialize`; the host decodes results
/// with its types; the conformance suite and the document tests iterate it. Notifications
/// (`exit`, `$/cancelRequest`, `$/log`) and the extension -> host services are not in it.
public enum WireMethods {
    /// The handshake, answered by the runtime of every extension.
    public static let initialize = WireMethodDescriptor(
        WireMethod.initialize, role: .lifecycle, params: InitializeParams.self, result: InitializeResult.self)
    /// Whether Wallet should list the issuer (100 ms).
    public static let status = WireMethodDescriptor(
        WireMethod.status, role: .nonUI, params: NoParams.self, result: StatusResult.self)
    /// The cards that can be added to this iPhone.
    public static let passEntries = WireMethodDescriptor(
        WireMethod.passEntries, role: .nonUI, params: NoParams.self, result: PassEntriesResult.self)
    /// The cards that can be added to the paired Apple Watch.
    public static let remotePassEntries = WireMethodDescriptor(
        WireMethod.remotePassEntries, role: .nonUI, params: NoParams.self, result: PassEntriesResult.self)
    /// The add-payment-pass request for one card; `null` when the handler completed with nil.
    public static let generateAddPaymentPassRequest = WireMethodDescriptor(
        WireMethod.generateAddPaymentPassRequest, role: .nonUI,
        params: GenerateAddPaymentPassRequestParams.self, result: AddPaymentPassRequestResult?.self)
    /// User authorization, on the UI extension.
    public static let authorize = WireMethodDescriptor(
        WireMethod.authorize, role: .ui, params: NoParams.self, result: AuthorizeResult.self)
    /// The first step of the stop sequence, answered by the runtime of every extension.
    public static let shutdown = WireMethodDescriptor(
        WireMethod.shutdown, role: .lifecycle, params: NoParams.self, result: NullResult.self)

    /// Every entry, in the order PROTOCOL.md documents them.
    public static let all: [any WireMethodDescribing] = [
        initialize, status, passEntries, remotePassEntries, generateAddPaymentPassRequest, authorize, shutdown,
    ]

    /// The entry for a method name, nil when the protocol has no such host -> extension request.
    /// - Parameter name: A method name as it appears on the wire.
    /// - Returns: The entry, to open for its types or to decode with.
    public static func named(_ name: String) -> (any WireMethodDescribing)? {
        all.first { $0.name == name }
    }

    /// The calls a handler of `role` answers, in table order: what it lists in `methods`.
    /// - Parameter role: ``WireMethodRole/nonUI`` or ``WireMethodRole/ui``; ``WireMethodRole/lifecycle``
    ///   gives `initialize` and `shutdown`.
    /// - Returns: The entries of that role.
    public static func calls(for role: WireMethodRole) -> [any WireMethodDescribing] {
        all.filter { $0.role == role }
    }
}
