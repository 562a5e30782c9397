import Foundation

/// Lines made from `seeds` by one to three random edits each (a byte removed, one inserted from
/// `alphabet`, or one replaced by it): what a broken or hostile peer might write, for checking a
/// hand-written reader against `JSONDecoder`.
/// - Parameters:
///   - seeds: Well-formed lines to start from.
///   - alphabet: The bytes inserted or written over.
///   - count: How many lines to make.
///   - generator: Where the randomness comes from (a ``SeededGenerator`` keeps runs alike).
public func mutatedLines(of seeds: [String], alphabet: String, count: Int,
                         using generator: inout some RandomNumberGenerator) -> [Data] {
    let alphabet = Array(alphabet.utf8)
    return (0..<count).map { _ in
        var bytes = Array(seeds[Int.random(in: 0..<seeds.count, using: &generator)].utf8)
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let position = Int.random(in: 0...bytes.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0 where position < bytes.count: bytes.remove(at: position)
            case 1: bytes.insert(alphabet.randomElement(using: &generator)!, at: position)
            default: if position < bytes.count { bytes[position] = alphabet.randomElement(using: &generator)! }
            }
        }
        return Data(bytes)
    }
}
