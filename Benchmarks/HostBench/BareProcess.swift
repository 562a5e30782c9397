// Baselines that do not go through the host: a process spawned with posix_spawn (glibc's
// vfork-style clone) and spoken to directly over two pipes, from this thread, with blocking
// reads. What the host adds is measured against these.
import CWalletSpawn
import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// A child spawned without the host: it reads on fd 3 and writes on fd 4, like an extension.
final class BareProcess {
    let pid: pid_t
    private let requestWriter: Int32
    private let responseReader: Int32
    private var pending: [UInt8] = []

    /// Spawns `executablePath` with fds 3 and 4 on fresh pipes and `environment` only.
    init(executablePath: String, environment: [String: String]) {
        var requests: [Int32] = [-1, -1]
        var responses: [Int32] = [-1, -1]
        guard wh_pipe_cloexec(&requests) == 0, wh_pipe_cloexec(&responses) == 0 else {
            fatalError("pipe2 failed: errno \(errno)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on fds 3 and 4; every other pipe end closes at exec.
        posix_spawn_file_actions_adddup2(&actions, requests[0], 3)
        posix_spawn_file_actions_adddup2(&actions, responses[1], 4)
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(executablePath), nil]
        let environmentStrings: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (arguments + environmentStrings).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executablePath, &actions, nil, arguments, environmentStrings)
        guard result == 0 else { fatalError("posix_spawn \(executablePath) failed: errno \(result)") }
        close(requests[0])
        close(responses[1])
        self.pid = pid
        requestWriter = requests[1]
        responseReader = responses[0]
    }

    /// Writes `line` and a newline, then blocks until one whole line comes back; returns it.
    @discardableResult
    func roundTrip(_ line: String) -> String {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(requestWriter, $0.baseAddress, $0.count) }
            guard written > 0 || errno == EINTR else { fatalError("write to \(pid) failed: errno \(errno)") }
            offset += max(0, written)
        }
        return readLine()
    }

    private func readLine() -> String {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            let count = chunk.withUnsafeMutableBytes { read(responseReader, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { fatalError("\(pid) closed its fd 4 (errno \(errno))") }
            pending += chunk[..<count]
        }
    }

    /// Closes the pipes (the child reads end of file and exits) and reaps the child.
    func finish() {
        close(requestWriter)
        close(responseReader)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}

/// The wire lines the bare baselines send: the shapes the host sends (docs/PROTOCOL.md).
enum BareLines {
    static let initialize = #"{"id":1,"jsonrpc":"2.0","method":"initialize","params":{"appGroups":{},"bundleIdentifier":"com.example.bench.c","containingAppBundleIdentifier":"com.example.bench","deadlines":{"generateAddPaymentPassRequest":20000,"passEntries":20000,"remotePassEntries":20000,"status":100},"extensionPoint":"com.apple.PassKit.issuer-provisioning","memoryLimitBytes":57671680,"principalClass":"CStatusExt.Handler","protocolVersion":1}}"#
    static let status = #"{"id":2,"jsonrpc":"2.0","method":"status","params":{}}"#
}

/// The C extension's own spawn-to-first-answer: spawn, `initialize`, then `status` once the
/// handshake answered (the order the host must keep), timed until the status answer.
func bareSpawnToStatus(executablePath: String) -> Double {
    let started = ContinuousClock.now
    let process = BareProcess(executablePath: executablePath, environment: ["WALLET_EXTENSION_PROTOCOL": "1"])
    process.roundTrip(BareLines.initialize)
    let answer = process.roundTrip(BareLines.status)
    let elapsed = milliseconds(ContinuousClock.now - started)
    guard answer.contains("passEntriesAvailable") else { fatalError("unexpected status answer: \(answer)") }
    process.finish()
    return elapsed
}

/// Round trips of a one-line ping/pong between two processes pinned to one core (`across`
/// false) or to two, measured by the echo program itself; in ms.
func pinnedEchoTimes(pipeEcho: String, count: Int, across: Bool) throws -> [Double] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: pipeEcho)
    process.arguments = ["--measure", String(count), across ? "across" : "same"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let times = String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }.map { $0 / 1e6 }
    guard process.terminationStatus == 0, times.count == count else {
        throw ConfigurationError("\(pipeEcho) --measure failed (status \(process.terminationStatus))")
    }
    return times
}
