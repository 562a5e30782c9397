import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream into `\n`-terminated lines, refusing any line longer than a limit.
///
/// Feed it whatever `read(2)` returned; it hands back complete lines. A line over the
/// limit is reported once as ``Frame/oversized(byteCount:)`` and its bytes are dropped
/// up to the next newline, so memory stays bounded by the limit whatever the peer sends.
public struct LineFramer: Sendable {
    /// What the framer found in the stream.
    public enum Frame: Sendable, Equatable {
        /// A complete line, without its newline.
        case line(Data)
        /// A line that exceeded the limit; `byteCount` is how many bytes were seen before
        /// the framer gave up on it (at least the limit plus one).
        case oversized(byteCount: Int)
    }

    /// The longest accepted line, newline excluded.
    public let maximumLineBytes: Int
    private var pending = Data()
    private var discarding = false
    private var discardedBytes = 0

    public init(maximumLineBytes: Int = WireProtocol.maximumLineBytes) {
        self.maximumLineBytes = maximumLineBytes
    }

    /// Bytes of an incomplete line held back, waiting for its newline.
    public var bufferedByteCount: Int { pending.count }

    /// Adds bytes and returns every frame they complete.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Frame] {
        var frames: [Frame] = []
        var remaining = bytes[...]
        while !remaining.isEmpty {
            if let newline = Self.firstNewline(in: remaining) {
                let chunk = remaining[remaining.startIndex..<newline]
                if discarding {
                    discarding = false
                    frames.append(.oversized(byteCount: discardedBytes + chunk.count))
                } else if pending.count + chunk.count > maximumLineBytes {
                    frames.append(.oversized(byteCount: pending.count + chunk.count))
                    pending.removeAll(keepingCapacity: false)
                } else if pending.isEmpty {
                    frames.append(.line(Data(UnsafeRawBufferPointer(rebasing: chunk))))
                } else {
                    pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk))
                    frames.append(.line(pending))
                    pending = Data()
                }
                remaining = remaining[(newline + 1)...]
            } else {
                if discarding {
                    discardedBytes += remaining.count
                } else if pending.count + remaining.count > maximumLineBytes {
                    // Over the limit with no newline yet: stop buffering, keep counting.
                    discarding = true
                    discardedBytes = pending.count + remaining.count
                    pending.removeAll(keepingCapacity: false)
                } else {
                    pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: remaining))
                }
                remaining = remaining[remaining.endIndex...]
            }
        }
        return frames
    }

    /// The index of the first `\n`, found with `memchr`: a scan of a 16 MiB line must not
    /// cost seconds in a debug build.
    private static func firstNewline(in bytes: Slice<UnsafeRawBufferPointer>) -> Int? {
        guard let base = bytes.base.baseAddress, !bytes.isEmpty else { return nil }
        guard let found = memchr(base + bytes.startIndex, Int32(UInt8(ascii: "\n")), bytes.count) else { return nil }
        return UnsafeRawPointer(found) - base
    }

    /// Convenience for tests and small inputs.
    public mutating func append(_ data: Data) -> [Frame] {
        data.withUnsafeBytes { append($0) }
    }

    /// What is left at end of stream: an unterminated tail is not a message.
    /// Returns the number of bytes of the half line (0 when the stream ended cleanly).
    public mutating func finish() -> Int {
        defer {
            pending = Data()
            discarding = false
            discardedBytes = 0
        }
        return discarding ? discardedBytes : pending.count
    }
}
