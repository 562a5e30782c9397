import ConformanceEngine
import Foundation
import Testing
import Wallet
import WalletWire

/// Wallet's conformance exercises follow the method table: one per call, judged by the table's types.
@Suite("Wallet conformance exercises")
struct ConformanceExerciseTests {
    static let exercises = WalletConformance.profile(
        state: StateDirectory(url: FileManager.default.temporaryDirectory.appendingPathComponent("unused-\(UUID())"))
    ).exercises

    static func exercise(_ method: some WireMethodDescribing) throws -> MethodExercise {
        try #require(exercises.first { $0.method == method.name }, "no exercise for \(method.name)")
    }

    @Test("there is exactly one exercise for every call of the table, and none for anything else")
    func oneExercisePerCall() {
        let calls = (WireMethods.calls(for: .nonUI) + WireMethods.calls(for: .ui)).map(\.name)
        #expect(Self.exercises.map(\.method) == calls)
    }

    @Test("a result of the table's shape is valid; a wrong shape is invalid and names the key")
    func judgesByTheTableTypes() throws {
        let status = try Self.exercise(WireMethods.status)
        let good = JSONValue.object(["passEntriesAvailable": .bool(true), "remotePassEntriesAvailable": .bool(false),
                                     "requiresAuthentication": .bool(false)])
        let summary = try #require(status.judge(good).summary, "a good status was judged invalid")
        #expect(summary.contains("passEntriesAvailable true"))
        let problem = try #require(status.judge(.object(["passEntriesAvailable": .string("yes")])).problem,
                                   "a status with a string flag was judged valid")
        #expect(problem.contains("passEntriesAvailable"), "\(problem)")

        let request = try Self.exercise(WireMethods.generateAddPaymentPassRequest)
        let nullSummary = try #require(request.judge(.null).summary, "a null add-payment-pass result was judged invalid")
        #expect(nullSummary.contains("null"))
        #expect(!request.standalone, "it needs an entry from passEntries first")

        let authorize = try Self.exercise(WireMethods.authorize)
        #expect(authorize.judge(.object(["result": .string("maybe")])).problem != nil, "authorize \"maybe\" was judged valid")
    }
}

extension MethodExercise.Judgement {
    /// A valid result's summary; nil when the result was judged invalid.
    var summary: String? {
        guard case .valid(let summary) = self else { return nil }
        return summary
    }

    /// What is wrong with an invalid result; nil when it was judged valid.
    var problem: String? {
        guard case .invalid(let problem) = self else { return nil }
        return problem
    }
}
