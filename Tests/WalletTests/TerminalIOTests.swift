import Foundation
import Synchronization
import Testing
import Wallet
import WalletTestSupport
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// A pseudo-terminal: the agent reads and writes the secondary side as if it were a real
/// terminal; the test types into, and reads the screen from, the primary side.
private struct PseudoTerminal {
    let primary: Int32
    let secondary: Int32

    init() throws {
        // Glibc's module map hides the X/Open pty calls, so they are looked up by name.
        typealias OpenPrimary = @convention(c) (Int32) -> Int32
        typealias PrimaryCall = @convention(c) (Int32) -> Int32
        typealias NameCall = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
        guard let openSymbol = dlsym(nil, "posix_openpt"), let grantSymbol = dlsym(nil, "grantpt"),
              let unlockSymbol = dlsym(nil, "unlockpt"), let nameSymbol = dlsym(nil, "ptsname_r") else {
            throw UserAgentError("the C library has no pseudo-terminal calls")
        }
        primary = unsafeBitCast(openSymbol, to: OpenPrimary.self)(O_RDWR | O_NOCTTY)
        var name = [CChar](repeating: 0, count: 128)
        guard primary >= 0, unsafeBitCast(grantSymbol, to: PrimaryCall.self)(primary) == 0,
              unsafeBitCast(unlockSymbol, to: PrimaryCall.self)(primary) == 0,
              unsafeBitCast(nameSymbol, to: NameCall.self)(primary, &name, name.count) == 0 else {
            throw UserAgentError("cannot open a pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        secondary = open(name, O_RDWR | O_NOCTTY)
        guard secondary >= 0 else { throw UserAgentError("cannot open the secondary side of the pseudo-terminal") }
        _ = fcntl(primary, F_SETFL, fcntl(primary, F_GETFL) | O_NONBLOCK)
    }

    var echoIsOn: Bool {
        var state = termios()
        _ = tcgetattr(secondary, &state)
        return state.c_lflag & tcflag_t(ECHO) != 0
    }

    func type(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(primary, $0.baseAddress, $0.count - 1) }
    }

    /// Everything shown on the screen so far.
    func screen() -> String {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(primary, &buffer, buffer.count)
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func close() {
        _ = Glibc.close(secondary)
        _ = Glibc.close(primary)
    }
}

/// Set by the test's own SIGINT handler, which the echo guard's handler must hand the signal on to.
private let interruptSeen = Atomic<Bool>(false)

@Suite("Terminal I/O", .serialized, .timeLimit(.minutes(1)))
struct TerminalIOTests {
    private static let unlock = UIPromptParams(title: "Unlock", fields: [.init(name: "pin", label: "PIN", secure: true)],
                                               actions: ["OK"])

    @Test("on a pipe a line is read up to its newline and no further; CRLF and a last line without newline are handled")
    func pipeLines() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let text = Array("jane\r\nsecret\nrest".utf8)
        #expect(write(fds[1], text, text.count) == text.count)
        close(fds[1])
        let terminal = TerminalIO.fileDescriptors(input: fds[0], output: STDERR_FILENO)
        #expect(try terminal.readLine(false) == "jane")
        #expect(try terminal.readLine(true) == "secret")  // hidden, but not a terminal: read as is
        #expect(try terminal.readLine(false) == "rest")
        #expect(try terminal.readLine(false) == nil)
    }

    @Test("a whole prompt over pipes, output included")
    func promptOverPipes() async throws {
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        #expect(pipe(&input) == 0 && pipe(&output) == 0)
        defer { close(input[0]); close(output[0]) }
        let typed = Array("1234\nOK\n".utf8)
        _ = write(input[1], typed, typed.count)
        close(input[1])
        let agent = InteractiveUserAgent(terminal: .fileDescriptors(input: input[0], output: output[1]))
        #expect(try await agent.prompt(Self.unlock) == UIPromptResult(action: "OK", values: ["pin": "1234"]))
        close(output[1])
        let shown = String(decoding: FileHandle(fileDescriptor: output[0]).readDataToEndOfFile(), as: UTF8.self)
        #expect(shown == "\nUnlock\nPIN:   1) OK\nChoose 1: ")
    }

    @Test("a screen's title, label and action are shown with their control characters escaped (issue 31, break 11)")
    func hostileScreenIsEscaped() async throws {
        var input: [Int32] = [0, 0], output: [Int32] = [0, 0]
        #expect(pipe(&input) == 0 && pipe(&output) == 0)
        defer { close(input[0]); close(output[0]) }
        let typed = Array("x\n1\n".utf8)
        _ = write(input[1], typed, typed.count)
        close(input[1])
        let hostile = UIPromptParams(title: "Bank\u{1B}]0;pwned\u{7}", fields: [.init(name: "pin", label: "PIN\u{1B}]52;c;eA==\u{7}", secure: false)],
                                     actions: ["FAILED\rOK"])
        let agent = InteractiveUserAgent(terminal: .fileDescriptors(input: input[0], output: output[1]))
        _ = try await agent.prompt(hostile)
        close(output[1])
        let shown = String(decoding: FileHandle(fileDescriptor: output[0]).readDataToEndOfFile(), as: UTF8.self)
        #expect(!shown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x0D }, "\(shown.debugDescription)")
        #expect(shown.contains(#"Bank\u{1B}]0;pwned\u{7}"#) && shown.contains(#"FAILED\u{D}OK"#), "\(shown)")
    }

    @Test("on a terminal a secure field is not echoed, and echo is back afterwards")
    func hiddenOnTerminal() async throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        #expect(pty.echoIsOn)
        let agent = InteractiveUserAgent(terminal: .fileDescriptors(input: pty.secondary, output: pty.secondary))
        async let answer = agent.prompt(Self.unlock)
        try await waitFor("echo is off", timeout: .seconds(10)) { !pty.echoIsOn }
        pty.type("hunter2\n")
        try await waitFor("echo is back on", timeout: .seconds(10)) { pty.echoIsOn }
        pty.type("1\n")
        #expect(try await answer.values["pin"] == "hunter2")
        #expect(pty.echoIsOn)
        let screen = pty.screen()
        #expect(screen.contains("PIN: "))
        #expect(screen.contains("Choose 1: "))
        #expect(!screen.contains("hunter2"), "\(screen)")
    }

    @Test("a signal during a hidden read restores echo and reaches the previous handler")
    func signalRestoresEcho() async throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        var testHandler = sigaction()
        sigemptyset(&testHandler.sa_mask)
        testHandler.__sigaction_handler.sa_handler = { _ in interruptSeen.store(true, ordering: .relaxed) }
        var original = sigaction()
        _ = sigaction(SIGINT, &testHandler, &original)
        defer { _ = sigaction(SIGINT, &original, nil) }
        interruptSeen.store(false, ordering: .relaxed)

        let agent = InteractiveUserAgent(terminal: .fileDescriptors(input: pty.secondary, output: pty.secondary))
        async let answer = agent.prompt(Self.unlock)
        try await waitFor("echo is off", timeout: .seconds(10)) { !pty.echoIsOn }
        kill(getpid(), SIGINT)
        try await waitFor("the test's handler ran", timeout: .seconds(10)) { interruptSeen.load(ordering: .relaxed) }
        #expect(pty.echoIsOn, "the echo guard's handler must restore the terminal before the signal goes on")
        pty.type("1234\n")
        pty.type("1\n")
        #expect(try await answer.values["pin"] == "1234")
        #expect(pty.echoIsOn)
        var current = sigaction()
        _ = sigaction(SIGINT, nil, &current)
        #expect(unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
                == unsafeBitCast(testHandler.__sigaction_handler.sa_handler, to: Int.self),
                "the previous SIGINT action is back once the read is over")
    }
}
