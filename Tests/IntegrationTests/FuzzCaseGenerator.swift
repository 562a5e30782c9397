import Foundation
import WalletTestSupport

/// One hostile input for the replay extension: bytes to write on fd 4, then (maybe) the real answer.
struct FuzzCase: Encodable, Sendable {
    struct Chunk: Encodable, Sendable {
        var bytes: Data
        var repeatCount: Int

        enum CodingKeys: String, CodingKey {
            case bytes
            case repeatCount = "repeat"
        }
    }

    var kind: String
    var chunks: [Chunk]
    /// Whether the extension sends its real response afterwards.
    var answer: Bool
    /// Whether the extension exits right after the chunks (no newline, no answer).
    var exit: Bool

    enum CodingKeys: String, CodingKey { case chunks, answer, exit }
}

/// Generates what an untrusted extension might write on fd 4 (issue: random bytes, invalid
/// UTF-8, a line of 100 MB, JSON nested 100,000 deep, wrong types, unknown or repeated ids,
/// responses to nothing, a flood of notifications, a half line then EOF).
struct FuzzCaseGenerator {
    var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    private static let validShapes = [
        #"{"jsonrpc":"2.0","id":$ID,"result":{"ok":true}}"#,
        #"{"jsonrpc":"2.0","id":$ID,"error":{"code":-32000,"message":"handler failed"}}"#,
        #"{"jsonrpc":"2.0","method":"$/log","params":{"level":"info","message":"hello"}}"#,
        #"{"jsonrpc":"2.0","id":"x","method":"watch.isPaired","params":{}}"#,
    ]

    mutating func next() -> FuzzCase {
        let kinds = ["random", "utf8", "wrongTypes", "unknownId", "repeatedId", "deepNesting", "mutated",
                     "notificationFlood", "hugeLine", "halfLineThenExit", "garbageNoAnswer", "serviceRequest"]
        // Big and silent inputs are rarer: they cost time (a silent one waits out its deadline),
        // not coverage.
        var kind = kinds[Int.random(in: 0..<kinds.count, using: &random)]
        if (kind == "notificationFlood" || kind == "halfLineThenExit" || kind == "garbageNoAnswer"),
           Int.random(in: 0..<8, using: &random) != 0 {
            kind = "mutated"
        }
        if kind == "hugeLine", Int.random(in: 0..<32, using: &random) != 0 {
            kind = "mutated"
        }
        switch kind {
        case "random":
            return line(kind, randomBytes(Int.random(in: 1...300, using: &random)))
        case "utf8":
            var bytes = Array(#"{"jsonrpc":"2.0","method":"$/log","params":{"level":"info","message":""#.utf8)
            bytes += [0xC3, 0x28, 0xFF, 0xFE, 0xED, 0xA0, 0x80]
            bytes += Array(#""}}"#.utf8)
            return line(kind, bytes)
        case "wrongTypes":
            let shapes = [#"{"jsonrpc":2,"id":$ID,"result":{}}"#, #"{"jsonrpc":"2.0","id":[1],"result":{}}"#,
                          #"{"jsonrpc":"2.0","id":$ID,"error":{"code":"x","message":5}}"#,
                          #"{"jsonrpc":"2.0","method":7}"#, #"[1,2,3]"#, #"null"#, #""just a string""#,
                          #"{"jsonrpc":"2.0","id":$ID,"result":{"ok":"maybe"}}"#]
            return line(kind, Array(shapes[Int.random(in: 0..<shapes.count, using: &random)].utf8))
        case "unknownId":
            return line(kind, Array(#"{"jsonrpc":"2.0","id":\#(Int.random(in: 100_000...999_999, using: &random)),"result":{}}"#.utf8))
        case "repeatedId":
            let response = Array(#"{"jsonrpc":"2.0","id":$ID,"result":{"ok":true}}"#.utf8) + [10]
            return FuzzCase(kind: kind, chunks: [.init(bytes: Data(response), repeatCount: 3)], answer: true, exit: false)
        case "deepNesting":
            let depth = 100_000
            let body = Array(#"{"jsonrpc":"2.0","id":$ID,"result":"#.utf8)
            return FuzzCase(kind: kind, chunks: [.init(bytes: Data(body), repeatCount: 1),
                                                 .init(bytes: Data("[".utf8), repeatCount: depth),
                                                 .init(bytes: Data("]".utf8), repeatCount: depth),
                                                 .init(bytes: Data("}\n".utf8), repeatCount: 1)],
                            answer: true, exit: false)
        case "notificationFlood":
            let notification = Array(#"{"jsonrpc":"2.0","method":"$/log","params":{"level":"debug","message":"flood"}}"#.utf8) + [10]
            return FuzzCase(kind: kind, chunks: [.init(bytes: Data(notification), repeatCount: 20_000)], answer: true, exit: false)
        case "hugeLine":
            // 100 MiB without a newline, written in 1 MiB pieces.
            return FuzzCase(kind: kind, chunks: [.init(bytes: Data(repeating: UInt8(ascii: "x"), count: 1 << 20), repeatCount: 100)],
                            answer: true, exit: false)
        case "halfLineThenExit":
            return FuzzCase(kind: kind, chunks: [.init(bytes: Data(#"{"jsonrpc":"2.0","id":$ID,"res"#.utf8), repeatCount: 1)],
                            answer: false, exit: true)
        case "garbageNoAnswer":
            return FuzzCase(kind: kind, chunks: [.init(bytes: Data(randomBytes(40) + [10]), repeatCount: 1)], answer: false, exit: false)
        case "serviceRequest":
            return line(kind, Array(#"{"jsonrpc":"2.0","id":"s\#(Int.random(in: 0...9, using: &random))","method":"passLibrary.passes","params":{"passType":\#(Int.random(in: 0...1, using: &random) == 0 ? "\"secureElement\"" : "42")}}"#.utf8))
        default:
            var bytes = Array(Self.validShapes[Int.random(in: 0..<Self.validShapes.count, using: &random)].utf8)
            for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.remove(at: index)
                default: bytes.insert(UInt8.random(in: 32...126, using: &random), at: index)
                }
            }
            return line("mutated", bytes)
        }
    }

    private mutating func randomBytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// One line (a newline is added unless the bytes already end in one), then the real answer.
    private func line(_ kind: String, _ bytes: [UInt8]) -> FuzzCase {
        let terminated = bytes.last == 10 ? bytes : bytes + [10]
        return FuzzCase(kind: kind, chunks: [.init(bytes: Data(terminated), repeatCount: 1)], answer: true, exit: false)
    }
}
