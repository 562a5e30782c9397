import Foundation
import Testing
@testable import WalletExtensionKit
import WalletTestSupport

/// Set in the environment of the writer processes: `<container>|<key prefix>|<key count>`.
private let writerAssignment = ProcessInfo.processInfo.environment["WALLET_SDK_TEST_DEFAULTS_WRITER"]

/// Several processes (the app, two extensions, the host) write one App Group's defaults at
/// the same time; the lock and the atomic replace must keep every key.
///
/// The writers are this test binary run again with a filter that selects
/// ``writeAssignedKeys()``, which only acts when its assignment is in the environment.
@Suite("SharedDefaults across processes", .serialized, .timeLimit(.minutes(1)))
struct SharedDefaultsProcessTests {
    static let suite = "group.com.example.tests"

    @Test(.enabled(if: writerAssignment != nil, "runs only as a writer process"))
    func writeAssignedKeys() throws {
        let parts = try #require(writerAssignment).split(separator: "|").map(String.init)
        let defaults = SharedDefaults(suiteName: Self.suite, containerURL: URL(fileURLWithPath: parts[0]))
        for index in 0..<(Int(parts[2]) ?? 0) {
            defaults.set("\(parts[1])-\(index)", forKey: "\(parts[1])-\(index)")
        }
    }

    @Test(.enabled(if: writerAssignment == nil))
    func concurrentWriterProcessesAndThreadsLoseNoKey() async throws {
        let container = try TemporaryDirectory(prefix: "sdk-tests").url
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let processes = try (0..<4).map { writer in
            let process = Process()
            process.executableURL = testBinary
            process.arguments = ["--testing-library", "swift-testing",
                                 "--filter", "SharedDefaultsProcessTests/writeAssignedKeys"]
            var environment = ProcessInfo.processInfo.environment
            environment["WALLET_SDK_TEST_DEFAULTS_WRITER"] = "\(container.path)|process\(writer)|30"
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        // This process writes too, from several threads, while the others run.
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    let defaults = SharedDefaults(suiteName: Self.suite, containerURL: container)
                    for index in 0..<30 { defaults.set(index, forKey: "thread\(writer)-\(index)") }
                }
            }
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let all = SharedDefaults(suiteName: Self.suite, containerURL: container).dictionaryRepresentation()
        #expect(all.count == 240)
        for writer in 0..<4 {
            #expect(all["process\(writer)-29"] as? String == "process\(writer)-29")
            #expect(all["thread\(writer)-29"] as? Int == 29)
        }
    }
}
