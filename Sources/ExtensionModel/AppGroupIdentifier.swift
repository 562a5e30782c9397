/// The rule an App Group identifier must follow before the host will name a directory after it.
///
/// iOS App Group identifiers are reverse-DNS strings (`group.com.example.issuer`). The host keeps
/// each group's container at `<state>/AppGroups/<identifier>/`, so an identifier that is not one
/// plain path component (`..`, `.`, empty, or with a `/`) would put the container somewhere else:
/// `..` is the state directory itself, where the app would write over `passes.json`.
public enum AppGroupIdentifier {
    /// The longest identifier, in UTF-8 bytes, that fits in one directory name.
    public static let maximumByteCount = 255

    /// Why `identifier` cannot be an App Group identifier, or nil when it can.
    /// - Parameter identifier: The identifier as the entitlements declare it.
    /// - Returns: The problem as a clause ("is empty"), to follow the quoted identifier.
    public static func problem(_ identifier: String) -> String? {
        if identifier.isEmpty { return "is empty" }
        if identifier == "." { return "is the name of the current directory, not of an App Group" }
        if identifier == ".." { return "is the name of the parent directory, not of an App Group" }
        if identifier.contains("/") { return "contains \"/\"" }
        if identifier.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "contains a control character"
        }
        if identifier.utf8.count > maximumByteCount {
            return "is \(identifier.utf8.count) bytes long, over the \(maximumByteCount) a directory name can hold"
        }
        return nil
    }
}
