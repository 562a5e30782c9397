import Foundation
import WalletDaemon
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// A line server on a Unix socket that answers each request line with a canned answer (the
/// line the daemon answered once, with the request's id), on one thread of the client's own
/// process. Through it the same `DaemonClient` pays for the socket round trip and for encoding
/// its request and decoding that same answer. Printed beside ``CannedAnswerProcess``, the
/// baseline the figures subtract: a round trip between two threads of one process is not the
/// one a client makes to the daemon.
final class CannedAnswerServer: @unchecked Sendable {
    let socketPath: String
    private let listener: Int32

    /// - Parameter answer: a response line of the daemon to request id 1 (`{"id":1,...}\n`).
    init(answer: Data, directory: URL) throws {
        let text = String(decoding: answer, as: UTF8.self)
        guard text.hasPrefix(#"{"id":1,"#) else { throw DaemonError("not an answer to id 1: \(text.prefix(80))") }
        let suffix = Array(text.dropFirst(#"{"id":1"#.count).utf8)
        socketPath = directory.appendingPathComponent("canned-\(UInt32.random(in: 0...UInt32.max)).sock").path
        listener = try UnixSocket.listen(path: socketPath)
        let listener = listener
        let thread = Thread {
            while let fd = UnixSocket.accept(listener) {
                Self.serve(fd, suffix: suffix)
                close(fd)
            }
        }
        thread.stackSize = 256 << 10
        thread.start()
    }

    /// Answers request N of the connection with `{"id":N` + the canned rest, until the client leaves.
    private static func serve(_ fd: Int32, suffix: [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var nextID = 1
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            var answers: [UInt8] = []
            for byte in buffer[..<count] where byte == 0x0A {
                answers.append(contentsOf: #"{"id":"#.utf8)
                answers.append(contentsOf: String(nextID).utf8)
                answers.append(contentsOf: suffix)
                nextID += 1
            }
            if !answers.isEmpty && !UnixSocket.writeAll(fd, Data(answers)) { return }
        }
    }

    deinit {
        unlink(socketPath)
    }
}

/// The same canned answers from a process of its own (Benchmarks/CannedAnswerServer, in C), as
/// the daemon is one: the client's own cost with a socket round trip to another process, the
/// baseline the per-request figures subtract (``CannedAnswerServer``, a thread of the client's
/// own process, is printed beside it).
final class CannedAnswerProcess {
    let socketPath: String
    private let process = Process()

    /// - Parameter answer: a response line of the daemon to request id 1 (`{"id":1,...}\n`).
    init(executable: String, answer: Data, directory: URL) throws {
        let name = "canned-\(UInt32.random(in: 0...UInt32.max))"
        socketPath = directory.appendingPathComponent(name + ".sock").path
        let answerFile = directory.appendingPathComponent(name + ".answer")
        try answer.write(to: answerFile)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [socketPath, answerFile.path]
        try process.run()
        let giveUp = ContinuousClock.now + .seconds(5)
        while (try? DaemonClient(connectingTo: socketPath)) == nil {
            guard ContinuousClock.now < giveUp, process.isRunning else { throw DaemonError("\(executable) did not listen on \(socketPath)") }
            usleep(5_000)
        }
    }

    deinit {
        // Not started (its init threw): pid 0 would be this process group.
        guard process.processIdentifier > 0 else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        unlink(socketPath)
    }
}

/// The raw answer line the daemon gives to `method` with `params`, as request id 1 on a fresh connection.
func rawAnswer(socket: String, method: String, params: JSONValue) throws -> Data {
    let client = try DaemonClient(connectingTo: socket)
    try client.send(WireCodec().request(id: .number(1), method: method, params: params))
    guard let message = try client.readMessage() else { throw DaemonError("no answer to \(method)") }
    return message.line + Data([0x0A])
}

/// The thread count of a process (`Threads:` in /proc/PID/status).
func threadCount(_ pid: Int32) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let row = text.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }) else { return 0 }
    return Int(row.split(separator: "\t").last ?? "") ?? 0
}

/// Raises this process's soft limit of open files as far as `wanted` (the bench holds thousands of clients).
func raiseDescriptorLimit(to wanted: rlim_t) -> rlim_t {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
    if limit.rlim_cur < wanted {
        limit.rlim_cur = min(wanted, limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
    return limit.rlim_cur
}
