import FoundationEssentials
import WalletWire

/// Key-value defaults shared through an App Group container: `UserDefaults(suiteName:)` for
/// the containing app and its extensions.
///
/// **Porting:** replace `UserDefaults(suiteName: appGroupID)` with
/// `SharedDefaults(suiteName: appGroupID)`; the accessors keep their names.
///
/// The values live in a property list at
/// `<App Group container>/Library/Preferences/<suiteName>.plist`, where iOS keeps them
/// too. Unlike `UserDefaults` there is no in-memory cache: every read reads the file, so a
/// value the app (or the other extension, or the host) wrote a moment ago is seen at once,
/// and every write is an atomic read-modify-write of the file under a lock (see
/// ``SharedPropertyListFile``), so several processes can write different keys at the same
/// time without losing any. Values are property-list objects: `String`, `Bool`, integers,
/// `Double`, `Float`, `Data`, `Date`, and arrays and string-keyed dictionaries of them.
public final class SharedDefaults: Sendable {
    /// The suite, which is also the App Group identifier.
    public let suiteName: String
    /// The property-list file holding the values.
    public let fileURL: URL
    private let file: SharedPropertyListFile

    /// The defaults of the App Group `suiteName`.
    /// - Returns: `nil` when the process has no container for that App Group (see
    ///   `FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`).
    public convenience init?(suiteName: String) {
        guard let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: suiteName) else {
            return nil
        }
        self.init(suiteName: suiteName, containerURL: container)
    }

    /// The defaults of suite `suiteName` kept in an explicitly given container directory
    /// (for tools and tests that are not launched by the host).
    public init(suiteName: String, containerURL: URL) {
        self.suiteName = suiteName
        fileURL = containerURL.appending(path: "Library/Preferences/\(suiteName).plist")
        file = SharedPropertyListFile(path: fileURL.path(percentEncoded: false))
    }

    // MARK: Reading

    /// The property-list object stored under `key`, or nil.
    public func object(forKey key: String) -> Any? {
        file.read()[key]?.object
    }

    /// The string under `key`; numbers are converted to their decimal text.
    public func string(forKey key: String) -> String? {
        switch file.read()[key] {
        case .string(let value): return value
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        default: return nil
        }
    }

    /// The data under `key`, or nil.
    public func data(forKey key: String) -> Data? {
        guard case .data(let value) = file.read()[key] else { return nil }
        return value
    }

    /// The Boolean under `key`; non-zero numbers and the strings "YES", "true" and "1" are
    /// true; anything else, or no value, is false.
    public func bool(forKey key: String) -> Bool {
        switch file.read()[key] {
        case .bool(let value): return value
        case .integer(let value): return value != 0
        case .real(let value): return value != 0
        case .string(let value): return ["yes", "true", "1"].contains(value.lowercased())
        default: return false
        }
    }

    /// The integer under `key`; Booleans, reals and numeric strings are converted; 0 when
    /// there is no such value.
    public func integer(forKey key: String) -> Int {
        switch file.read()[key] {
        case .integer(let value): return value
        case .bool(let value): return value ? 1 : 0
        case .real(let value): return Int(exactly: value.rounded(.towardZero)) ?? 0
        case .string(let value): return Int(value) ?? 0
        default: return 0
        }
    }

    /// The real number under `key`; integers, Booleans and numeric strings are converted;
    /// 0 when there is no such value.
    public func double(forKey key: String) -> Double {
        switch file.read()[key] {
        case .real(let value): return value
        case .integer(let value): return Double(value)
        case .bool(let value): return value ? 1 : 0
        case .string(let value): return Double(value) ?? 0
        default: return 0
        }
    }

    /// The array under `key`, or nil.
    public func array(forKey key: String) -> [Any]? {
        object(forKey: key) as? [Any]
    }

    /// The string array under `key`, or nil when it is missing or holds other values.
    public func stringArray(forKey key: String) -> [String]? {
        object(forKey: key) as? [String]
    }

    /// The dictionary under `key`, or nil.
    public func dictionary(forKey key: String) -> [String: Any]? {
        object(forKey: key) as? [String: Any]
    }

    /// Every key and value of the suite.
    public func dictionaryRepresentation() -> [String: Any] {
        file.read().mapValues(\.object)
    }

    // MARK: Writing

    /// Stores `value` under `key`, or removes the key when `value` is nil.
    ///
    /// Like `UserDefaults`, it does not throw: a value that is not a property-list object,
    /// or a file that cannot be written, is reported on stderr and nothing changes.
    public func set(_ value: Any?, forKey key: String) {
        guard let value else {
            removeObject(forKey: key)
            return
        }
        guard let propertyListValue = PropertyListValue(value) else {
            Diagnostics.log("SharedDefaults(\(suiteName)): \(type(of: value)) under \"\(key)\" is not a property-list value; not stored")
            return
        }
        write("set \"\(key)\"") { $0[key] = propertyListValue }
    }

    /// Removes the value under `key`.
    public func removeObject(forKey key: String) {
        write("remove \"\(key)\"") { $0.removeValue(forKey: key) }
    }

    /// Always true: every write is already on disk when `set` returns. Kept for porting.
    @discardableResult
    public func synchronize() -> Bool { true }

    private func write(_ what: String, _ change: (inout [String: PropertyListValue]) -> Void) {
        do {
            try file.update(change)
        } catch {
            Diagnostics.log("SharedDefaults(\(suiteName)): could not \(what): \(error)")
        }
    }
}
