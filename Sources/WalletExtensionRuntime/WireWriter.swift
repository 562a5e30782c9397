import FoundationEssentials
import Synchronization
import WalletSystemCalls
import WalletWire
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the extension's protocol bytes go: fd 4 in a real process, a buffer in tests.
package protocol WireOutput: Sendable {
    /// Writes every byte or throws; called with the writer's lock held, so one message is
    /// never interleaved with another.
    func write(_ bytes: Data) throws(WireOutputError)

    /// ``write(_:)`` for bytes that are not in a `Data`; by default copied into one.
    func write(contentsOf bytes: UnsafeRawBufferPointer) throws(WireOutputError)
}

extension WireOutput {
    package func write(contentsOf bytes: UnsafeRawBufferPointer) throws(WireOutputError) {
        try write(Data(bytes))
    }
}

/// Writing to the host failed; `EPIPE` means the host has gone.
package struct WireOutputError: Error, Sendable, CustomStringConvertible {
    package var errorNumber: Int32

    package var description: String { "write to the host failed: \(String(cString: strerror(errorNumber)))" }
}

/// Writes to a file descriptor, retrying partial writes and `EINTR`.
package struct FileDescriptorOutput: WireOutput {
    package let fileDescriptor: Int32

    package init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    package func write(_ bytes: Data) throws(WireOutputError) {
        let failure: WireOutputError? = bytes.withUnsafeBytes { buffer in
            do throws(WireOutputError) {
                try write(contentsOf: buffer)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    package func write(contentsOf buffer: UnsafeRawBufferPointer) throws(WireOutputError) {
        do {
            try SystemCall.writeAll(fileDescriptor, buffer)
        } catch {
            throw WireOutputError(errorNumber: (error as? SystemCallError)?.errno ?? EIO)
        }
    }
}

/// Encodes JSON-RPC messages and writes them as whole lines, one writer at a time.
package final class WireWriter: Sendable {
    private let output: any WireOutput
    /// Held for each write, so that one message is never interleaved with another.
    private let writeLock = Mutex(())

    package init(output: any WireOutput) {
        self.output = output
    }

    /// Sends a success response.
    package func sendResponse(id: RequestID, result: some Encodable & Sendable) {
        // `status` and `shutdown` results are a few fixed bytes: JSONEncoder was a fifth of a
        // warm status call's own cost.
        if let plain = result as? any PlainJSONEncodable, let line = WireCodec().plainResponse(id: id, result: plain) {
            line.withUnsafeBytes { bytes in _ = write("response to \(id)", bytes) }
            return
        }
        send("response to \(id)") { codec in try codec.response(id: id, result: result) }
    }

    /// Sends an error response; `id` is nil when the failed line had no readable id.
    package func sendError(id: RequestID?, _ error: RPCErrorObject) {
        send("error response to \(id.map(String.init(describing:)) ?? "null")") { codec in
            try codec.errorResponse(id: id, error: error)
        }
    }

    /// Sends a request of the extension's own (a host-service call).
    /// - Throws: the encoding or write failure, so that the caller does not wait for an answer.
    package func sendRequest(id: RequestID, method: String, params: some Encodable & Sendable) throws {
        if let failure = send("\(method) request \(id)", encode: { codec in
            try codec.request(id: id, method: method, params: params)
        }) {
            throw failure
        }
    }

    /// Sends a notification (no answer expected), such as `$/log`.
    package func sendNotification(method: String, params: some Encodable & Sendable) {
        send("\(method) notification") { codec in try codec.notification(method: method, params: params) }
    }

    /// Writes bytes exactly as given, under the same lock as whole messages.
    package func sendRaw(_ bytes: Data) {
        send("raw bytes") { _ in bytes }
    }

    /// Encodes one message, then writes it; returns the failure, already logged.
    @discardableResult
    private func send(_ what: @autoclosure () -> String, encode: (inout WireCodec) throws -> Data) -> (any Error)? {
        let line: Data
        do {
            // Encoded outside the lock: a writer holds it only for its write(2).
            var codec = WireCodec()
            line = try encode(&codec)
        } catch {
            Diagnostics.log("could not send \(what()): \(error)")
            return error
        }
        return line.withUnsafeBytes { bytes in write(what(), bytes) }
    }

    /// Writes one whole message under the lock; returns the failure, already logged.
    private func write(_ what: @autoclosure () -> String, _ bytes: UnsafeRawBufferPointer) -> WireOutputError? {
        let failure: WireOutputError? = writeLock.withLock { _ in
            do throws(WireOutputError) {
                try output.write(contentsOf: bytes)
                return nil
            } catch {
                return error
            }
        }
        // A broken pipe means the host has gone; end of input on fd 3 follows and ends the process.
        if let failure { Diagnostics.log("could not send \(what()): \(failure)") }
        return failure
    }
}
