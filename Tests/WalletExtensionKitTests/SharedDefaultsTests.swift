import Foundation
import Testing
@testable import WalletExtensionKit
import WalletTestSupport

/// App Group defaults: UserDefaults semantics, a plist where iOS keeps it, no lost keys.
@Suite("SharedDefaults", .timeLimit(.minutes(1)))
struct SharedDefaultsTests {
    let container: URL
    let suite = "group.com.example.tests"

    init() throws {
        container = try TemporaryDirectory(prefix: "sdk-tests").url
    }

    var defaults: SharedDefaults { SharedDefaults(suiteName: suite, containerURL: container) }

    @Test func valuesRoundTripThroughThePlistWhereIOSKeepsIt() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        defaults.set("hello", forKey: "string")
        defaults.set(Data([0, 1, 2]), forKey: "data")
        defaults.set(true, forKey: "bool")
        defaults.set(42, forKey: "integer")
        defaults.set(2.5, forKey: "double")
        defaults.set(date, forKey: "date")
        defaults.set(["a", "b"], forKey: "array")
        defaults.set(["nested": 1], forKey: "dictionary")

        let reader = defaults
        #expect(reader.string(forKey: "string") == "hello")
        #expect(reader.data(forKey: "data") == Data([0, 1, 2]))
        #expect(reader.bool(forKey: "bool"))
        #expect(reader.integer(forKey: "integer") == 42)
        #expect(reader.double(forKey: "double") == 2.5)
        #expect(reader.object(forKey: "date") as? Date == date)
        #expect(reader.stringArray(forKey: "array") == ["a", "b"])
        #expect(reader.dictionary(forKey: "dictionary")?["nested"] as? Int == 1)
        #expect(reader.fileURL.path == container.appendingPathComponent("Library/Preferences/\(suite).plist").path)
        #expect(FileManager.default.fileExists(atPath: reader.fileURL.path))
    }

    @Test func accessorsConvertLikeUserDefaults() {
        defaults.set("YES", forKey: "flag")
        defaults.set("17", forKey: "count")
        defaults.set(1, forKey: "one")
        #expect(defaults.bool(forKey: "flag"))
        #expect(defaults.integer(forKey: "count") == 17)
        #expect(defaults.bool(forKey: "one"))
        #expect(defaults.string(forKey: "one") == "1")
        #expect(!defaults.bool(forKey: "missing"))
        #expect(defaults.integer(forKey: "missing") == 0)
        #expect(defaults.data(forKey: "flag") == nil)
    }

    @Test func removingAndSettingNilDeleteTheKey() {
        defaults.set("x", forKey: "a")
        defaults.set("y", forKey: "b")
        defaults.removeObject(forKey: "a")
        defaults.set(nil, forKey: "b")
        #expect(defaults.object(forKey: "a") == nil)
        #expect(defaults.object(forKey: "b") == nil)
        #expect(defaults.dictionaryRepresentation().isEmpty)
    }

    @Test func aValueThatIsNotAPropertyListIsNotStored() {
        struct NotAPropertyList {}
        defaults.set(NotAPropertyList(), forKey: "odd")
        #expect(defaults.object(forKey: "odd") == nil)
    }

    @Test func everyReadSeesWhatAnotherWriterJustWrote() {
        let first = defaults
        let second = defaults
        #expect(first.string(forKey: "k") == nil)
        second.set("v1", forKey: "k")
        #expect(first.string(forKey: "k") == "v1")
        second.set("v2", forKey: "k")
        #expect(first.string(forKey: "k") == "v2")
    }

    @Test func concurrentWritersOnManyThreadsLoseNoKey() async throws {
        let suite = suite, container = container
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    let defaults = SharedDefaults(suiteName: suite, containerURL: container)
                    for key in 0..<20 { defaults.set(writer * 100 + key, forKey: "w\(writer)-k\(key)") }
                }
            }
        }
        let all = defaults.dictionaryRepresentation()
        #expect(all.count == 160)
        #expect(all["w7-k19"] as? Int == 719)
    }

    @Test func aContainerComesFromTheHost() throws {
        AppGroupContainers.useContainersFromHost([suite: container.path])
        defer { AppGroupContainers.useContainersFromHost([:]) }
        let url = try #require(FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: suite))
        #expect(url.path == container.path)
        #expect(SharedDefaults(suiteName: suite) != nil)
        #expect(SharedDefaults(suiteName: "group.com.example.other") == nil)
    }
}
