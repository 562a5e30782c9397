import WalletWire
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads fd 3 on its own thread, splits it into lines and hands them to the runtime.
///
/// Nothing but framing and dispatch happens here, so `$/cancelRequest`, `exit` and the
/// answers to service requests are handled however busy (or stuck) the handlers are.
enum HostInputReader {
    /// Reads until end of file or a read error, then tells the runtime the input ended.
    static func run(fileDescriptor: Int32, runtime: ExtensionRuntime) {
        var framer = LineFramer()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(fileDescriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                Diagnostics.log("reading fd \(fileDescriptor) failed: \(String(cString: strerror(errno)))")
                break
            }
            if count == 0 { break }
            for frame in framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) {
                switch frame {
                case .line(let line):
                    runtime.receive(line: line)
                case .oversized(let byteCount):
                    runtime.receiveOversizedLine(byteCount: byteCount)
                }
            }
        }
        let halfLine = framer.finish()
        if halfLine > 0 {
            Diagnostics.log("fd \(fileDescriptor) ended inside a line; \(halfLine) bytes dropped")
        }
        runtime.receiveEndOfInput()
    }
}
