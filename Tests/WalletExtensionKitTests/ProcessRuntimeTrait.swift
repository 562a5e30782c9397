import Testing

/// Lets one test at a time install the process-wide runtime (`ExtensionRuntime.current`) that
/// host services use. Suites run in parallel, so `.serialized` alone keeps only one suite's
/// tests apart; every suite that installs the runtime takes this trait, and its tests wait here
/// for each other across suites.
struct ProcessRuntimeTrait: SuiteTrait, TestTrait, TestScoping {
    /// Each test of the suite is scoped, not the suite as a whole.
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // Turns are per test case; the suite and a test as a whole (no test case) take none,
        // or a test would wait for its own case.
        guard testCase != nil else { return try await function() }
        await ProcessRuntimeTurns.shared.begin()
        do {
            try await function()
        } catch {
            await ProcessRuntimeTurns.shared.end()
            throw error
        }
        await ProcessRuntimeTurns.shared.end()
    }
}

extension Trait where Self == ProcessRuntimeTrait {
    /// The test installs the process-wide extension runtime: one such test at a time.
    static var processRuntime: Self { ProcessRuntimeTrait() }
}

/// Turns at the process-wide runtime, in the order asked for, without blocking a thread.
actor ProcessRuntimeTurns {
    static let shared = ProcessRuntimeTurns()
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func begin() async {
        guard taken else {
            taken = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func end() {
        if waiting.isEmpty {
            taken = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
