import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

// How the state directory words what went wrong: errno, Foundation and decoding errors as clauses.

extension StateDirectory {
    static func errnoReason(_ code: Int32 = errno) -> String {
        String(cString: strerror(code)).lowercased()
    }

    /// A Foundation error as a clause, without the `NSError` dump.
    static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return errnoReason(Int32(underlying.code))
        }
        if nsError.domain == NSPOSIXErrorDomain { return errnoReason(Int32(nsError.code)) }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileWriteFileExists: return "a file is in the way"
        case .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on device"
        case .fileWriteVolumeReadOnly: return "read-only file system"
        default: return nsError.localizedDescription
        }
    }

    /// A decoding error as a clause: what is wrong, and where.
    static func decodingProblem(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "" : " at " + path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        }
        switch decodingError {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "it is not valid JSON"
        case .dataCorrupted(let context):
            return "it holds an unreadable value\(at(context.codingPath))"
        case .keyNotFound(let key, let context):
            return "it has no \"\(key.stringValue)\"\(at(context.codingPath))"
        case .typeMismatch(let type, let context):
            return "it holds the wrong kind of value\(at(context.codingPath)) (expected \(type))"
        case .valueNotFound(let type, let context):
            return "it holds null\(at(context.codingPath)) (expected \(type))"
        @unknown default:
            return "it cannot be decoded"
        }
    }
}

/// A state file that cannot be read or written: one sentence naming the file.
public struct StateError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
