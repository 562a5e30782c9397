import Foundation
import WalletWire

/// Checks the pass entries an extension returned for one device as Wallet does (DESIGN §9 step 4):
/// from `passEntries` for the iPhone, from `remotePassEntries` for the paired Apple Watch.
///
/// Rules, each reported as an ``EntryFinding`` naming the entry and the field:
/// - `identifier` not empty and unique among the entries (error);
/// - `title` not empty (error);
/// - `art.png` a PNG smaller than ``artByteLimit`` (error) of ``artWidth`` x ``artHeight`` pixels:
///   another size within ``artAspectTolerance`` of the card's shape is a warning with the numbers
///   (Wallet scales it, as it shows a real issuer's 1536 x 979 art); a shape further off, which
///   Wallet could show only distorted, is an error;
/// - the configuration has a `cardholderName` or a `primaryAccountSuffix` (error);
/// - `encryptionScheme` is one of ``encryptionSchemes`` and `style` one of ``styles`` (error);
/// - the card is not already in this device's pass library (error: the extension should have
///   filtered it out; Wallet shows it as already added);
/// - `primaryAccountIdentifier` is set (warning: without it Wallet cannot tell whether the card
///   is already added).
public struct PassEntryValidator: Sendable {
    /// Card art width Wallet requires, in pixels.
    public static let artWidth = 1536
    /// Card art height Wallet requires, in pixels.
    public static let artHeight = 969
    /// How far (as a fraction) art's width-to-height ratio may be from 1536 / 969 and still be
    /// shown, scaled, with a warning: 5 %.
    public static let artAspectTolerance = 0.05
    /// Card art must be smaller than this many bytes: 4 MB, counted in decimal megabytes
    /// (the stricter reading of Wallet's "< 4 MB").
    public static let artByteLimit = 4_000_000
    /// The encryption schemes Wallet supports (`PKEncryptionScheme`).
    public static let encryptionSchemes: Set<String> = ["ECC_V2", "RSA_V2"]
    /// The card styles Wallet supports (`PKAddPaymentPassStyle`).
    public static let styles: Set<String> = ["payment", "access"]

    /// Creates a validator. The rules are Wallet's and take no configuration.
    public init() {}

    /// Validates the entries one device was offered, in the order the extension returned them.
    /// - Parameters:
    ///   - entries: The `entries` of a `passEntries` or `remotePassEntries` result.
    ///   - device: `.iphone` for `passEntries`, `.watch` for `remotePassEntries`.
    ///   - library: Every pass of the simulated device (both devices); only those on `device`
    ///     (`isRemotePass` false for the iPhone, true for the watch) count as already added.
    /// - Returns: Every finding, and the entries without an error, in their original order.
    public func validate(_ entries: [WirePassEntry], for device: DeviceKind, library: [PassRecord]) -> PassEntryValidation {
        let passLibrary = library.filter { $0.device == device }
        var findings: [EntryFinding] = []
        var usable: [WirePassEntry] = []
        let positions = Dictionary(grouping: entries.indices, by: { entries[$0].identifier })
        for (index, entry) in entries.enumerated() {
            var entryFindings = EntryFindings(identifier: entry.identifier, index: index)
            checkIdentifier(entry, at: index, positions: positions[entry.identifier] ?? [], into: &entryFindings)
            if entry.title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                entryFindings.error(EntryFinding.Field.title, "the title is empty; Wallet shows it as the card's name")
            }
            checkArt(entry.art.png, into: &entryFindings)
            checkConfiguration(entry.addRequestConfiguration, device: device, passLibrary: passLibrary, into: &entryFindings)
            if !entryFindings.list.containsErrors { usable.append(entry) }
            findings += entryFindings.list
        }
        return PassEntryValidation(findings: findings, usable: usable)
    }

    private func checkIdentifier(_ entry: WirePassEntry, at index: Int, positions: [Int], into findings: inout EntryFindings) {
        if entry.identifier.isEmpty {
            findings.error(EntryFinding.Field.identifier,
                           "the identifier is empty; Wallet names the chosen card by it in generateAddPaymentPassRequest")
        } else if positions.count > 1 {
            let others = positions.filter { $0 != index }
            let sharers = others.count == 1
                ? "entry \(others[0]) uses"
                : "entries \(others.map(String.init).joined(separator: ", ")) use"
            findings.error(EntryFinding.Field.identifier, "identifier \"\(entry.identifier)\" is duplicated: \(sharers) it too; "
                           + "Wallet cannot tell these cards apart")
        }
    }

    private func checkArt(_ png: Data, into findings: inout EntryFindings) {
        let field = EntryFinding.Field.art
        do {
            let header = try PNGImageHeader.read(png)
            if header.width != Self.artWidth || header.height != Self.artHeight {
                let wanted = Double(Self.artWidth) / Double(Self.artHeight)
                let actual = header.height > 0 ? Double(header.width) / Double(header.height) : 0
                let off = abs(actual - wanted) / wanted
                if off <= Self.artAspectTolerance {
                    findings.warning(field, "art is \(header.width) x \(header.height) pixels, not the \(Self.artWidth) x "
                                     + "\(Self.artHeight) Wallet asks for; its shape is \(Self.percent(off)) off the card's, "
                                     + "so Wallet scales it to fit")
                } else {
                    findings.error(field, "art is \(header.width) x \(header.height) pixels; "
                                   + "Wallet needs exactly \(Self.artWidth) x \(Self.artHeight)")
                }
            }
        } catch {
            findings.error(field, "art \(error.description)")
        }
        if png.count >= Self.artByteLimit {
            findings.error(field, "art is \(byteCountText(png.count)); "
                           + "Wallet needs card art under 4 MB (\(byteCountText(Self.artByteLimit)))")
        }
    }

    /// `1.0 %`.
    private static func percent(_ fraction: Double) -> String {
        String(format: "%.1f %%", fraction * 100)
    }

    private func checkConfiguration(_ configuration: WireAddRequestConfiguration, device: DeviceKind, passLibrary: [PassRecord],
                                    into findings: inout EntryFindings) {
        if isBlank(configuration.cardholderName) && isBlank(configuration.primaryAccountSuffix) {
            findings.error(EntryFinding.Field.cardholderName,
                           "the configuration has neither cardholderName nor primaryAccountSuffix; "
                           + "Wallet needs one of them to show the card")
        }
        if !Self.encryptionSchemes.contains(configuration.encryptionScheme) {
            findings.error(EntryFinding.Field.encryptionScheme,
                           "encryptionScheme \"\(configuration.encryptionScheme)\" is not supported; use ECC_V2 or RSA_V2")
        }
        if !Self.styles.contains(configuration.style) {
            findings.error(EntryFinding.Field.style, "style \"\(configuration.style)\" is not supported; use payment or access")
        }
        checkPassLibrary(configuration.primaryAccountIdentifier, device: device, passLibrary: passLibrary, into: &findings)
    }

    private func checkPassLibrary(_ accountIdentifier: String?, device: DeviceKind, passLibrary: [PassRecord],
                                  into findings: inout EntryFindings) {
        let field = EntryFinding.Field.primaryAccountIdentifier
        let method = device == .iphone ? "passEntries" : "remotePassEntries"
        guard let accountIdentifier, !isBlank(accountIdentifier) else {
            findings.warning(field, "primaryAccountIdentifier is missing, so Wallet cannot tell whether this card "
                             + "is already on the \(device.deviceName)")
            return
        }
        if passLibrary.contains(where: { $0.primaryAccountIdentifier == accountIdentifier }) {
            findings.error(field, "account \(accountIdentifier) is already in the \(device.deviceName)'s pass library, "
                           + "so Wallet shows this card as already added; \(method) should leave it out "
                           + "(compare with passLibrary.passes where isRemotePass is \(device == .watch))")
        }
    }

    private func isBlank(_ text: String?) -> Bool {
        text?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? true
    }
}

/// What ``PassEntryValidator`` found in one list of entries.
public struct PassEntryValidation: Sendable, Hashable {
    /// Every finding, entry by entry in the extension's order.
    public var findings: [EntryFinding]
    /// The entries without an error finding, in the extension's order: those Wallet offers the user.
    public var usable: [WirePassEntry]

    /// Creates a validation result.
    public init(findings: [EntryFinding], usable: [WirePassEntry]) {
        self.findings = findings
        self.usable = usable
    }

    /// Whether any entry has an error.
    public var hasErrors: Bool { findings.containsErrors }
}

/// Collects the findings of one entry.
private struct EntryFindings {
    let identifier: String
    let index: Int
    var list: [EntryFinding] = []

    mutating func error(_ field: String, _ problem: String) {
        list.append(EntryFinding(.error, entryIdentifier: identifier, entryIndex: index, field: field, problem: problem))
    }

    mutating func warning(_ field: String, _ problem: String) {
        list.append(EntryFinding(.warning, entryIdentifier: identifier, entryIndex: index, field: field, problem: problem))
    }
}
