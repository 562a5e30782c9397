import Foundation
import WalletWire

/// Splits a non-blocking pipe's bytes into lines with the protocol's ``LineFramer``, capped
/// as the host caps an extension's output: a line over 64 KiB is logged as its size only.
struct OutputLines {
    private var framer = LineFramer(maximumLineBytes: 64 * 1024)
    private var lines: [String] = []
    /// The pipe reached its end (or failed): nothing more to wait for on it.
    private(set) var ended = false

    /// Reads what the pipe holds, `reads` reads at most.
    mutating func drain(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, reads: Int = .max) {
        var done = 0
        while !ended, done < reads {
            done += 1
            let count: Int?
            do {
                count = try SystemCall.read(fd, into: buffer)
            } catch {
                count = 0
            }
            guard let count else { return }
            guard count > 0 else {
                ended = true
                return
            }
            collect(framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])))
        }
    }

    /// The lines, the last one included even without its newline: unlike a protocol
    /// message, an app's last words count when it exits mid-line.
    mutating func finish() -> [String] {
        if framer.bufferedByteCount > 0 { collect(framer.append(Data([UInt8(ascii: "\n")]))) }
        let tail = framer.finish()
        if tail > 0 { lines.append("(\(tail) bytes without a final newline, not shown)") }
        return lines
    }

    private mutating func collect(_ frames: [LineFramer.Frame]) {
        for frame in frames {
            switch frame {
            case .line(let data): lines.append(String(decoding: data, as: UTF8.self))
            case .oversized(let byteCount): lines.append("(a line of \(byteCount) bytes, not shown)")
            }
        }
    }
}
