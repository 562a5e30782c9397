import Foundation
import Testing
import WalletTestSupport
import WalletWire

/// Runs the Python handler printed in docs/PROTOCOL.md section 14 with its protocol fds
/// redirected to files, and checks its answers with WalletWire. Skipped without python3.
@Suite("docs/PROTOCOL.md Python handler", .serialized, .enabled(if: Python3.isAvailable, "python3 is not on PATH"))
struct PythonHandlerExampleTests {

    /// What one run of the handler left behind.
    struct Run {
        var status: Int32
        var protocolOutput: Data
        var standardError: String
    }

    /// Writes the document's ```python block to a temporary file and runs it as
    /// `python3 handler.py 3<input 4>output`.
    static func runHandler(input: Data, underHost: Bool) throws -> Run {
        let blocks = try ProtocolDocument().blocks(tagged: "python")
        try #require(blocks.count == 1, "PROTOCOL.md should have exactly one ```python block")
        let source = blocks[0].lines.map(\.text).joined(separator: "\n") + "\n"

        let temporary = try TemporaryDirectory(prefix: "wallet-wire-python")
        defer { temporary.remove() }
        let directory = temporary.url
        let script = directory.appendingPathComponent("handler.py")
        let inputFile = directory.appendingPathComponent("input")
        let outputFile = directory.appendingPathComponent("output")
        try Data(source.utf8).write(to: script)
        try input.write(to: inputFile)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"exec "$0" "$1" 3<"$2" 4>"$3""#, Python3.path!, script.path, inputFile.path, outputFile.path]
        var environment = ProcessInfo.processInfo.environment
        environment[WireEnvironment.protocolVersion] = underHost ? String(WireProtocol.version) : nil
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let standardError = Pipe()
        process.standardError = standardError
        try process.run()
        let errorText = standardError.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = (try? Data(contentsOf: outputFile)) ?? Data()
        return Run(status: process.terminationStatus, protocolOutput: output,
                   standardError: String(decoding: errorText, as: UTF8.self))
    }

    @Test("the handler answers a whole session and exits 0", .timeLimit(.minutes(1)))
    func wholeSession() throws {
        let codec = WireCodec()
        let configuration = WireAddRequestConfiguration(encryptionScheme: "ECC_V2", cardholderName: "Jane Appleseed")
        var input = Data()
        input += try codec.request(id: .number(1), method: WireMethod.status, params: NoParams())
        input += try codec.request(id: .number(2), method: WireMethod.initialize, params: InitializeParams(
            extensionPoint: WalletExtensionPoint.nonUI, principalClass: "Minimal.Handler", bundleIdentifier: "com.example.app.ext",
            containingAppBundleIdentifier: "com.example.app", appGroups: [:], memoryLimitBytes: 57_671_680,
            deadlines: [WireMethod.status: 100]))
        input += try codec.request(id: .number(3), method: WireMethod.status, params: NoParams())
        input += Data("not json\n".utf8)
        input += try codec.request(id: .string("four"), method: WireMethod.passEntries, params: NoParams())
        input += try codec.request(id: .number(5), method: WireMethod.generateAddPaymentPassRequest,
                                   params: GenerateAddPaymentPassRequestParams(
                                       identifier: "card-4242", configuration: configuration, certificateChain: [Data([1])],
                                       nonce: Data([2]), nonceSignature: Data([3])))
        input += try codec.request(id: .number(6), method: WireMethod.authorize, params: NoParams())
        input += try codec.notification(method: WireMethod.cancelRequest, params: CancelRequestParams(id: .number(6)))
        input += try codec.request(id: .number(7), method: WireMethod.shutdown, params: NoParams())
        input += try codec.notification(method: WireMethod.exit, params: NoParams())

        let run = try Self.runHandler(input: input, underHost: true)
        #expect(run.status == 0, "stderr: \(run.standardError)")

        var framer = LineFramer()
        let frames = framer.append(run.protocolOutput)
        #expect(framer.finish() == 0, "the handler left a half line on fd 4")
        let messages = try frames.map { frame -> WireMessage in
            guard case .line(let line) = frame else { throw RPCErrorObject(code: 0, message: "oversized line") }
            return try codec.decode(line)
        }
        try #require(messages.count == 8, "expected 8 answers, got \(messages.count): \(String(decoding: run.protocolOutput, as: UTF8.self))")

        func errorCode(_ message: WireMessage, id: RequestID?) -> Int? {
            guard case .errorResponse(let answeredID, let error) = message, answeredID == id else { return nil }
            return error.code
        }
        func result<Result: Decodable>(_ type: Result.Type, _ message: WireMessage, id: RequestID) throws -> Result? {
            guard case .response(let answeredID, let line) = message, answeredID == id else { return nil }
            return try codec.result(type, from: line)
        }

        #expect(errorCode(messages[0], id: .number(1)) == RPCErrorCode.notInitialized)
        let initialize = try result(InitializeResult.self, messages[1], id: .number(2))
        #expect(initialize?.protocolVersion == WireProtocol.version)
        #expect(initialize?.methods.contains(WireMethod.status) == true)
        #expect(try result(StatusResult.self, messages[2], id: .number(3))?.passEntriesAvailable == true)
        #expect(errorCode(messages[3], id: nil) == RPCErrorCode.parseError)
        #expect(try result(PassEntriesResult.self, messages[4], id: .string("four"))?.entries.count == 1)
        let request = try result(AddPaymentPassRequestResult?.self, messages[5], id: .number(5))
        #expect(request??.ephemeralPublicKey?.count == 65)
        #expect(request??.ephemeralPublicKey?.first == 0x04)
        #expect(request??.encryptedPassData != nil && request??.activationData != nil)
        #expect(errorCode(messages[6], id: .number(6)) == RPCErrorCode.methodNotFound)
        let shutdown = try #require(messages[7].response, "shutdown was not answered with a result: \(messages[7])")
        #expect(shutdown.id == .number(7))
        #expect(try codec.result(JSONValue.self, from: shutdown.line) == .null)
    }

    @Test("the handler refuses an initialize with another protocol version", .timeLimit(.minutes(1)))
    func otherVersion() throws {
        let codec = WireCodec()
        var params = InitializeParams(extensionPoint: WalletExtensionPoint.nonUI, principalClass: "Minimal.Handler",
                                      bundleIdentifier: "b", containingAppBundleIdentifier: "a", appGroups: [:],
                                      memoryLimitBytes: 1, deadlines: [:])
        params.protocolVersion = 2
        var input = try codec.request(id: .number(1), method: WireMethod.initialize, params: params)
        input += try codec.notification(method: WireMethod.exit, params: NoParams())
        let run = try Self.runHandler(input: input, underHost: true)
        #expect(run.status == 0)
        let message = try codec.decode(run.protocolOutput.dropLast())
        let (id, error) = try #require(message.errorResponse, "expected an error response to id 1, got \(message)")
        #expect(id == .number(1))
        #expect(error.code == RPCErrorCode.unsupportedProtocolVersion)
        #expect(error.data == .object(["supported": .array([.integer(1)])]))
    }

    @Test("run by hand, the handler prints a note and exits instead of reading fd 3", .timeLimit(.minutes(1)))
    func runByHand() throws {
        let run = try Self.runHandler(input: Data(), underHost: false)
        #expect(run.status != 0)
        #expect(run.standardError.contains("wallet-host"))
        #expect(run.protocolOutput.isEmpty)
    }
}
