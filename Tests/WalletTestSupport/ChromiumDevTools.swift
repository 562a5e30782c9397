import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A headless Chromium driven over the DevTools protocol on `--remote-debugging-pipe`: the
/// browser reads commands on its descriptor 3 and writes answers and events on 4, one JSON
/// message per NUL byte. No WebSocket, no library: pipes and JSON.
public final class ChromiumDevTools: @unchecked Sendable {
    /// A JSON object as the protocol has it (results, event params).
    public typealias Object = [String: Any]

    private struct Pending {
        var continuations: [Int: CheckedContinuation<JSONBox, any Error>] = [:]
        var events: [JSONBox] = []
        var nextID = 1
        var closed = false
    }

    /// A JSON object that crosses threads (it is never changed once parsed).
    public struct JSONBox: @unchecked Sendable {
        public let object: Object
    }

    public let pid: pid_t
    private let commands: Int32
    private let answers: Int32
    private let state = Mutex(Pending())
    private let profile: URL
    private let reaped = Mutex(false)

    /// Starts the browser.
    /// - Parameter executable: chromium's path (``Chromium/path``).
    /// - Throws: ``ChromiumError`` when it cannot be started.
    public init(executable: String) throws {
        var toBrowser: [Int32] = [0, 0]
        var fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else {
            throw ChromiumError(description: "pipe: errno \(errno)")
        }
        // Close-on-exec: the browser gets only the two ends dup2 puts at 3 and 4.
        for fd in toBrowser + fromBrowser { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        profile = TemporaryDirectory.uniqueURL(prefix: "chromium-profile")
        // --no-sandbox: the tests run as root, and Chromium refuses to start its sandbox as root
        // (it needs an unprivileged user for its namespaces and seccomp layers); the page it
        // loads is our own, served on loopback.
        let arguments = [executable, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                         "--remote-debugging-pipe", "--user-data-dir=\(profile.path)", "--hide-scrollbars",
                         "--disable-background-networking", "--disable-extensions", "about:blank"]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, toBrowser[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromBrowser[1], 4)
        // The test runner's environment (the toolchain's library path among it) is not the browser's.
        let host = ProcessInfo.processInfo.environment
        let environment = ["PATH=/usr/bin:/bin", "HOME=\(host["HOME"] ?? "/tmp")", "LANG=C.UTF-8"]
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, &argv, &envp)
        Glibc.close(toBrowser[0])
        Glibc.close(fromBrowser[1])
        guard spawned == 0 else {
            Glibc.close(toBrowser[1])
            Glibc.close(fromBrowser[0])
            throw ChromiumError(description: "cannot start \(executable): errno \(spawned)")
        }
        pid = child
        commands = toBrowser[1]
        answers = fromBrowser[0]
        let thread = Thread { [self] in readAnswers() }
        thread.name = "chromium-devtools"
        thread.start()
    }

    /// Sends one command and waits for its answer.
    /// - Parameters:
    ///   - session: the target session (``attach(to:)``), nil for the browser.
    ///   - timeout: how long the answer may take.
    /// - Throws: ``ChromiumError`` with the protocol's error, or when the browser is gone or slow.
    @discardableResult
    public func send(_ method: String, _ params: Object = [:], session: String? = nil,
                     timeout: Duration = .seconds(30)) async throws -> Object {
        let id = state.withLock { state -> Int in
            defer { state.nextID += 1 }
            return state.nextID
        }
        var message: Object = ["id": id, "method": method, "params": params]
        if let session { message["sessionId"] = session }
        let data = try JSONSerialization.data(withJSONObject: message) + Data([0])
        let box = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONBox, any Error>) in
            let closed = state.withLock { state -> Bool in
                if state.closed { return true }
                state.continuations[id] = continuation
                return false
            }
            if closed { return continuation.resume(throwing: ChromiumError(description: "the browser has exited")) }
            let written = data.withUnsafeBytes { raw -> Bool in
                var offset = 0
                while offset < raw.count {
                    let count = write(commands, raw.baseAddress! + offset, raw.count - offset)
                    if count <= 0 { return false }
                    offset += count
                }
                return true
            }
            if !written {
                state.withLock { $0.continuations.removeValue(forKey: id) }?
                    .resume(throwing: ChromiumError(description: "cannot write to the browser"))
                return
            }
            let seconds = Double(timeout.components.seconds)
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                state.withLock { $0.continuations.removeValue(forKey: id) }?
                    .resume(throwing: ChromiumError(description: "\(method) had no answer within \(timeout)"))
            }
        }
        if let error = box.object["error"] as? Object {
            throw ChromiumError(description: "\(method): \(error["message"] ?? error)")
        }
        return box.object["result"] as? Object ?? [:]
    }

    /// A new tab at `url`, attached (flat sessions): the page to drive.
    public func openPage(_ url: String = "about:blank") async throws -> ChromiumPage {
        let target = try await send("Target.createTarget", ["url": "about:blank"])
        guard let targetID = target["targetId"] as? String else { throw ChromiumError(description: "no targetId in \(target)") }
        let attached = try await send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        guard let session = attached["sessionId"] as? String else { throw ChromiumError(description: "no sessionId in \(attached)") }
        let page = ChromiumPage(browser: self, session: session)
        try await send("Page.enable", session: session)
        try await send("Runtime.enable", session: session)
        if url != "about:blank" { try await page.navigate(url) }
        return page
    }

    /// The events received so far for `session` named `method`.
    public func events(_ method: String, session: String?) -> [Object] {
        state.withLock { $0.events }.map(\.object).filter {
            $0["method"] as? String == method && $0["sessionId"] as? String == session
        }
    }

    /// Closes the browser and waits for it to exit.
    public func close() async {
        _ = try? await send("Browser.close", timeout: .seconds(5))
        // Browser.close answers before the process has exited: give it a moment to end by itself.
        for _ in 0..<100 where kill(pid, 0) == 0 {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped.withLock { $0 = true }
                Glibc.close(commands)
                try? FileManager.default.removeItem(at: profile)
                return
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        reap()
    }

    /// Kills the browser if it still runs, and reaps it (once).
    private func reap() {
        let first = reaped.withLock { reaped -> Bool in
            defer { reaped = true }
            return !reaped
        }
        guard first else { return }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == 0 {
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
        }
        Glibc.close(commands)
        try? FileManager.default.removeItem(at: profile)
    }

    deinit { reap() }

    private func readAnswers() {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(answers, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            buffer.append(contentsOf: chunk[0..<count])
            while let end = buffer.firstIndex(of: 0) {
                let message = buffer[buffer.startIndex..<end]
                buffer = Data(buffer[(end + 1)...])
                guard let object = (try? JSONSerialization.jsonObject(with: message)) as? Object else { continue }
                let box = JSONBox(object: object)
                if let id = object["id"] as? Int {
                    state.withLock { $0.continuations.removeValue(forKey: id) }?.resume(returning: box)
                } else {
                    state.withLock { $0.events.append(box) }
                }
            }
        }
        let waiting = state.withLock { state -> [CheckedContinuation<JSONBox, any Error>] in
            state.closed = true
            defer { state.continuations.removeAll() }
            return Array(state.continuations.values)
        }
        for continuation in waiting { continuation.resume(throwing: ChromiumError(description: "the browser closed its pipe")) }
        Glibc.close(answers)
    }
}
