import FoundationEssentials

/// One way an extension can misbehave, read from the `TestHelperMode` file.
///
/// The file holds one line, `MODE [ARG]`, for example `slow-status 250`; see main.swift
/// for the list. A missing file means ``normal``.
enum HelperMode: Equatable {
    case normal
    case slowStatus(milliseconds: Int)
    case slowLaunch(milliseconds: Int)
    case slowEntries(milliseconds: Int)
    case hang
    case crashSignal
    case crashFatal
    case allocateMegabytes(Int)
    case allocateSmallMegabytes(Int)
    case allocateOnRequestMegabytes(Int)
    case garbageLine
    case garbageInstead
    case oversizedLine
    case doubleComplete
    case lateComplete(milliseconds: Int)
    case stdoutNoise
    case forkGrandchild
    case ignoreExit
    case nilRequest
    case badRequest
    case wrongShape
    case leakKilobytes(Int)
    case churnKilobytes(Int)
    case keychainWrite(token: String, accessGroup: String?)
    case keychainRead
    case passLibrary
    /// Its card's title is markup (`<script>`, `<img onerror>`): a page must show it as text.
    case hostileTitle

    /// The title ``hostileTitle`` gives its card.
    static let hostileCardTitle = #"<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">"#

    /// The file the host's working directory (the `.appex`) may hold.
    static let fileName = "TestHelperMode"

    /// Reads the mode file in the current directory; re-read on every call so that a test
    /// can switch modes on a warm process.
    static func current() -> HelperMode {
        guard let data = FileManager.default.contents(atPath: fileName) else { return .normal }
        let text = String(decoding: data, as: UTF8.self)
        do {
            return try HelperMode(parsing: text)
        } catch {
            print("TestHelperExt: \(error); using normal")
            return .normal
        }
    }

    /// Parses `MODE [ARG]`.
    init(parsing text: String) throws(HelperModeError) {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let name = words.first else {
            self = .normal
            return
        }
        func number() throws(HelperModeError) -> Int {
            guard words.count > 1, let value = Int(words[1]), value >= 0 else {
                throw HelperModeError(text: text, reason: "\(name) needs a non-negative number")
            }
            return value
        }
        switch name {
        case "normal": self = .normal
        case "slow-status": self = .slowStatus(milliseconds: try number())
        case "slow-launch": self = .slowLaunch(milliseconds: try number())
        case "slow-entries": self = .slowEntries(milliseconds: try number())
        case "hang": self = .hang
        case "crash-signal": self = .crashSignal
        case "crash-fatal": self = .crashFatal
        case "allocate-mb": self = .allocateMegabytes(try number())
        case "allocate-small-mb": self = .allocateSmallMegabytes(try number())
        case "allocate-on-request-mb": self = .allocateOnRequestMegabytes(try number())
        case "garbage-line": self = .garbageLine
        case "garbage-instead": self = .garbageInstead
        case "oversized-line": self = .oversizedLine
        case "double-complete": self = .doubleComplete
        case "late-complete": self = .lateComplete(milliseconds: try number())
        case "stdout-noise": self = .stdoutNoise
        case "fork-grandchild": self = .forkGrandchild
        case "ignore-exit": self = .ignoreExit
        case "nil-request": self = .nilRequest
        case "bad-request": self = .badRequest
        case "wrong-shape": self = .wrongShape
        case "leak-kb": self = .leakKilobytes(try number())
        case "churn-kb": self = .churnKilobytes(try number())
        case "keychain-write":
            guard words.count > 1 else { throw HelperModeError(text: text, reason: "keychain-write needs a token") }
            self = .keychainWrite(token: words[1], accessGroup: words.count > 2 ? words[2] : nil)
        case "keychain-read": self = .keychainRead
        case "pass-library": self = .passLibrary
        case "hostile-title": self = .hostileTitle
        default: throw HelperModeError(text: text, reason: "unknown mode \(name)")
        }
    }
}

/// The mode file could not be understood.
struct HelperModeError: Error, CustomStringConvertible {
    var text: String
    var reason: String

    var description: String {
        "TestHelperMode \"\(text.split(whereSeparator: \.isNewline).first ?? "")\": \(reason)"
    }
}
