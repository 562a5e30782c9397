import Testing
@testable import WalletHostRuntime

/// Durations and sizes typed on a command line: every one is bounded, so that none reaches an
/// `Int64(Double)` conversion that traps (issue 16, bad input).
@Suite("Durations, deadlines and sizes typed by people")
struct DurationTextTests {
    @Test("250ms, 2s, 1.5s, 300 (milliseconds), 0 and exactly 24 h are durations", arguments: [
        ("250ms", Duration.milliseconds(250)), ("2s", .seconds(2)), ("1.5s", .milliseconds(1500)), ("300", .milliseconds(300)),
        (" 20ms ", .milliseconds(20)), ("0", .zero), ("86400s", .seconds(86_400)), ("86400000", .seconds(86_400)),
    ])
    func accepted(_ text: String, _ expected: Duration) {
        #expect(DurationText.parse(text) == .success(expected))
        #expect(HostConfiguration.parseDuration(text) == expected)
    }

    @Test("NaN, infinity, hexadecimal and words are not durations", arguments: [
        "nan", "NaN", "inf", "infinity", "-inf", "infs", "nanms", "0x10", "0x1p3s", "", "s", "ms", "ten", "5m", "1h", "5 ms",
    ])
    func notDurations(_ text: String) {
        #expect(DurationText.parse(text) == .failure(.notADuration))
        #expect(HostConfiguration.parseDuration(text) == nil)
    }

    @Test("negative durations are refused as negative", arguments: ["-1", "-1s", "-0.5ms"])
    func negative(_ text: String) {
        #expect(DurationText.parse(text) == .failure(.negative))
    }

    @Test("over 24 h is refused, however big (1e300s used to trap)", arguments: [
        "1e300s", "1e300", "1E19ms", "86400.001s", "86400001", "9223372036854775807s", "1e308s",
    ])
    func tooLong(_ text: String) {
        #expect(DurationText.parse(text) == .failure(.tooLong))
    }

    @Test("the option's sentence names the option and the text")
    func sentences() throws {
        #expect(throws: ConfigurationError("--drain-grace: \"1e300s\" is longer than 24 h, the longest duration accepted")) {
            try DurationText.parse("1e300s", option: "--drain-grace", example: "20s or 500ms")
        }
        #expect(throws: ConfigurationError("--idle-timeout expects a duration above zero such as 30s or 500ms, not \"0s\"")) {
            try DurationText.parse("0s", option: "--idle-timeout", example: "30s or 500ms", allowsZero: false)
        }
        #expect(throws: ConfigurationError("--hang-grace expects a duration of zero or more, not \"-2s\"")) {
            try DurationText.parse("-2s", option: "--hang-grace", example: "500ms or 2s")
        }
        #expect(try DurationText.parse("0s", option: "--drain-grace", example: "20s") == .zero)
    }

    @Test("a client's deadlineMs is bounded the same way")
    func milliseconds() {
        #expect(DurationText.milliseconds(250) == .milliseconds(250))
        #expect(DurationText.milliseconds(86_400_000) == .seconds(86_400))
        for refused in [Double.nan, .infinity, -.infinity, -1, 1e300, 86_400_001] {
            #expect(DurationText.milliseconds(refused) == nil, "\(refused)")
        }
    }

    @Test("memory sizes: NaN, infinity and anything over 1 TiB are not sizes (1e300MB used to trap)")
    func sizes() {
        #expect(HostConfiguration.parseBytes("55MB") == 55 << 20)
        #expect(HostConfiguration.parseBytes("64KiB") == 64 << 10)
        #expect(HostConfiguration.parseBytes("1048576") == 1 << 20)
        #expect(HostConfiguration.parseBytes("1048576MiB") == 1 << 40)
        for refused in ["1e300MB", "infMB", "nanK", "-1MB", "1048577MiB", "9223372036854775807", "lots"] {
            #expect(HostConfiguration.parseBytes(refused) == nil, "\(refused)")
        }
    }
}
