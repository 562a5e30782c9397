import Foundation
import Testing
import WalletTestSupport
@testable import WalletBundleInspection

/// Issue 33, bug 3, for a built bundle: the host sent the storyboard's name as the class. The
/// compiled storyboard's Info.plist names the entry point's nib, whose `UIClassSwapper` holds
/// the custom class iOS instantiates.
@Suite("Reading a compiled storyboard's entry point")
struct CompiledStoryboardTests {
    /// A NIBArchive with a UIClassSwapper for `className` (original class `original`).
    static func nib(className: String, original: String) -> Data {
        func varint(_ value: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            var rest = value
            repeat {
                let low = UInt8(rest & 0x7f)
                rest >>= 7
                bytes.append(rest == 0 ? low | 0x80 : low)
            } while rest != 0
            return bytes
        }
        func word(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xff) } }
        let keys = ["UIClassName", "UIOriginalClassName", "NS.bytes"]
        let classNames = ["UIClassSwapper", "NSString"]
        // Objects: 0 the swapper (values 0, 1), 1 and 2 strings (values 2 and 3).
        let objects: [(classIndex: Int, first: Int, count: Int)] = [(0, 0, 2), (1, 2, 1), (1, 3, 1)]
        var values: [UInt8] = []
        values += varint(0) + [10] + word(1)
        values += varint(1) + [10] + word(2)
        for text in [className, original] { values += varint(2) + [8] + varint(text.utf8.count) + Array(text.utf8) }
        let objectBytes: [UInt8] = objects.flatMap { varint($0.classIndex) + varint($0.first) + varint($0.count) }
        let keyBytes: [UInt8] = keys.flatMap { varint($0.utf8.count) + Array($0.utf8) }
        let classBytes: [UInt8] = classNames.flatMap { varint($0.utf8.count + 1) + varint(0) + Array($0.utf8) + [0] }
        let headerLength = 10 + 8 + 32
        let objectOffset = headerLength, keyOffset = objectOffset + objectBytes.count
        let valueOffset = keyOffset + keyBytes.count, classOffset = valueOffset + values.count
        var header: [UInt8] = Array("NIBArchive".utf8)
        for number in [1, 10, objects.count, objectOffset, keys.count, keyOffset, 4, valueOffset, classNames.count, classOffset] {
            header += word(number)
        }
        var archive = header
        for part: [UInt8] in [objectBytes, keyBytes, values, classBytes] { archive += part }
        return Data(archive)
    }

    private func bundle(nib: Data?, entryPoint: Bool = true) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory(prefix: "storyboardc")
        let storyboard = directory.url.appendingPathComponent("Base.lproj/MainInterface.storyboardc")
        try FileManager.default.createDirectory(at: storyboard, withIntermediateDirectories: true)
        var info: [String: Any] = ["UIStoryboardVersion": 1,
                                   "UIViewControllerIdentifiersToNibNames": ["UIViewController-ObA-dk-sSI": "UIViewController-ObA-dk-sSI"]]
        if entryPoint { info["UIStoryboardDesignatedEntryPointIdentifier"] = "UIViewController-ObA-dk-sSI" }
        try PropertyListSerialization.data(fromPropertyList: info, format: .binary, options: 0)
            .write(to: storyboard.appendingPathComponent("Info.plist"))
        if let nib { try nib.write(to: storyboard.appendingPathComponent("UIViewController-ObA-dk-sSI.nib")) }
        return directory
    }

    @Test("the entry point's custom class is read from its nib")
    func readsTheClass() throws {
        let directory = try bundle(nib: Self.nib(className: "_TtC6WUIExt20ActionViewController", original: "UIViewController"))
        defer { directory.remove() }
        let result = CompiledStoryboard.entryClass(named: "MainInterface", in: directory.url)
        #expect((try? result.get()) == "WUIExt.ActionViewController")
        #expect(CompiledStoryboard.readableClassName("ActionViewController") == "ActionViewController")
    }

    @Test("what is missing is named with the storyboard")
    func namesWhatIsMissing() throws {
        let cases: [(TemporaryDirectory, String)] = [
            (try TemporaryDirectory(prefix: "storyboardc"), "storyboard MainInterface: the bundle has no MainInterface.storyboardc"),
            (try bundle(nib: nil, entryPoint: false), "storyboard MainInterface: MainInterface.storyboardc/Info.plist names no entry point"),
            (try bundle(nib: nil), "storyboard MainInterface: the entry point UIViewController-ObA-dk-sSI has no nib"),
            (try bundle(nib: Data("not a nib".utf8)), "is not a NIBArchive"),
            (try bundle(nib: Self.nib(className: "CustomButton", original: "UIButton")), "has no custom class"),
        ]
        for (directory, expected) in cases {
            defer { directory.remove() }
            guard case .failure(let problem) = CompiledStoryboard.entryClass(named: "MainInterface", in: directory.url) else {
                Issue.record("expected a problem containing \(expected)")
                continue
            }
            #expect(problem.description.contains(expected), "\(problem.description)")
        }
    }
}
