import Foundation

/// Reads the class of a built UI extension's storyboard entry point, as iOS instantiates it:
/// `NAME.storyboardc/Info.plist` names the entry point (`UIStoryboardDesignatedEntryPointIdentifier`)
/// and its nib (`UIViewControllerIdentifiersToNibNames`); the nib, a `NIBArchive`, holds the
/// custom class as the `UIClassName` of a `UIClassSwapper`.
struct CompiledStoryboard {
    /// The entry point's class, or a sentence naming the storyboard and what is missing.
    static func entryClass(named name: String, in bundleURL: URL) -> Result<String, StoryboardProblem> {
        let folder = "\(name).storyboardc"
        guard let storyboard = [bundleURL.appendingPathComponent(folder), bundleURL.appendingPathComponent("Base.lproj/\(folder)")]
            .first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            return .failure(StoryboardProblem("storyboard \(name): the bundle has no \(folder) (nor Base.lproj/\(folder))"))
        }
        guard let data = FileManager.default.contents(atPath: storyboard.appendingPathComponent("Info.plist").path),
              let info = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            return .failure(StoryboardProblem("storyboard \(name): \(folder)/Info.plist cannot be read"))
        }
        guard let entry = info["UIStoryboardDesignatedEntryPointIdentifier"] as? String else {
            return .failure(StoryboardProblem("storyboard \(name): \(folder)/Info.plist names no entry point "
                                              + "(UIStoryboardDesignatedEntryPointIdentifier): no initial view controller"))
        }
        let nibName = (info["UIViewControllerIdentifiersToNibNames"] as? [String: String])?[entry] ?? entry
        var nib = storyboard.appendingPathComponent("\(nibName).nib")
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: nib.path, isDirectory: &isFolder), isFolder.boolValue {
            let inside = (try? FileManager.default.contentsOfDirectory(atPath: nib.path)) ?? []
            guard let file = (["runtime.nib"] + inside.sorted()).first(where: { inside.contains($0) && $0.hasSuffix(".nib") }) else {
                return .failure(StoryboardProblem("storyboard \(name): \(nibName).nib holds no nib file"))
            }
            nib = nib.appendingPathComponent(file)
        }
        guard let bytes = FileManager.default.contents(atPath: nib.path) else {
            return .failure(StoryboardProblem("storyboard \(name): the entry point \(entry) has no nib \(nibName).nib"))
        }
        guard let archive = NIBArchive(bytes) else {
            return .failure(StoryboardProblem("storyboard \(name): \(nibName).nib is not a NIBArchive the host can read"))
        }
        guard let className = archive.swappedClassName() else {
            return .failure(StoryboardProblem("storyboard \(name): the initial view controller has no custom class, so it "
                                              + "cannot adopt PKIssuerProvisioningExtensionAuthorizationProviding"))
        }
        return .success(readableClassName(className))
    }

    /// `Module.Class` for the mangled name a nib stores for a Swift class
    /// (`_TtC6WUIExt20ActionViewController`); other names as they are.
    static func readableClassName(_ name: String) -> String {
        guard name.hasPrefix("_TtC") else { return name }
        var rest = Substring(name.dropFirst(4))
        var parts: [String] = []
        while let length = Int(rest.prefix { $0.isNumber }), length > 0 {
            rest = rest.drop { $0.isNumber }
            guard rest.count >= length else { return name }
            parts.append(String(rest.prefix(length)))
            rest = rest.dropFirst(length)
        }
        return parts.count == 2 && rest.isEmpty ? parts.joined(separator: ".") : name
    }
}

/// What is missing to read a storyboard's entry point, naming the storyboard.
struct StoryboardProblem: Error, Sendable {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The tables of a compiled nib (`NIBArchive`): objects, keys, values and class names.
struct NIBArchive {
    private struct Object { var classIndex: Int; var firstValue: Int; var valueCount: Int }
    private enum Value { case object(Int), data(Data), other }

    private var objects: [Object] = []
    private var keys: [String] = []
    private var values: [(key: Int, value: Value)] = []
    private var classNames: [String] = []

    /// Parses `bytes`; nil when they are not a NIBArchive or are cut short.
    init?(_ bytes: Data) {
        let data = [UInt8](bytes)
        guard data.count >= 50, Array(data[0..<10]) == Array("NIBArchive".utf8) else { return nil }
        var reader = NIBReader(data: data, offset: 18)
        var counts: [Int] = []
        for _ in 0..<8 {
            guard let value = reader.uint32() else { return nil }
            counts.append(value)
        }
        var objectReader = NIBReader(data: data, offset: counts[1])
        for _ in 0..<counts[0] {
            guard let classIndex = objectReader.varint(), let first = objectReader.varint(), let count = objectReader.varint() else { return nil }
            objects.append(Object(classIndex: classIndex, firstValue: first, valueCount: count))
        }
        var keyReader = NIBReader(data: data, offset: counts[3])
        for _ in 0..<counts[2] {
            guard let length = keyReader.varint(), let text = keyReader.bytes(length) else { return nil }
            keys.append(String(decoding: text, as: UTF8.self))
        }
        var valueReader = NIBReader(data: data, offset: counts[5])
        for _ in 0..<counts[4] {
            guard let key = valueReader.varint(), let type = valueReader.bytes(1)?.first else { return nil }
            let sizes: [UInt8: Int] = [0: 1, 1: 2, 2: 4, 3: 8, 4: 0, 5: 0, 6: 4, 7: 8, 9: 0]
            switch type {
            case 8:
                guard let length = valueReader.varint(), let payload = valueReader.bytes(length) else { return nil }
                values.append((key, .data(Data(payload))))
            case 10:
                guard let reference = valueReader.uint32() else { return nil }
                values.append((key, .object(reference)))
            default:
                guard let size = sizes[type], valueReader.bytes(size) != nil else { return nil }
                values.append((key, .other))
            }
        }
        var classReader = NIBReader(data: data, offset: counts[7])
        for _ in 0..<counts[6] {
            guard let length = classReader.varint(), let extras = classReader.varint(), classReader.bytes(extras * 4) != nil,
                  let text = classReader.bytes(length) else { return nil }
            classNames.append(String(decoding: text.prefix { $0 != 0 }, as: UTF8.self))
        }
    }

    /// The `UIClassName` of the first `UIClassSwapper` whose original class is a view controller.
    func swappedClassName() -> String? {
        for object in objects where classNames.indices.contains(object.classIndex) && classNames[object.classIndex] == "UIClassSwapper" {
            let original = string(for: "UIOriginalClassName", in: object) ?? ""
            guard original.hasSuffix("Controller"), let name = string(for: "UIClassName", in: object) else { continue }
            return name
        }
        return nil
    }

    /// The string a key of `object` points at: an NSString object's `NS.bytes`.
    private func string(for key: String, in object: Object) -> String? {
        for index in object.firstValue..<(object.firstValue + object.valueCount) where values.indices.contains(index) {
            let (keyIndex, value) = values[index]
            guard keys.indices.contains(keyIndex), keys[keyIndex] == key else { continue }
            switch value {
            case .data(let bytes):
                return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            case .object(let reference) where objects.indices.contains(reference):
                let target = objects[reference]
                return string(for: "NS.bytes", in: target)
            default:
                return nil
            }
        }
        return nil
    }
}

/// Reads NIBArchive numbers: little-endian 32-bit words and varints whose last byte has the high bit set.
private struct NIBReader {
    let data: [UInt8]
    var offset: Int

    mutating func uint32() -> Int? {
        guard let word = bytes(4) else { return nil }
        return word.enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    }

    mutating func varint() -> Int? {
        var result = 0
        var shift = 0
        while offset < data.count, shift < 63 {
            let byte = data[offset]
            offset += 1
            result |= Int(byte & 0x7f) << shift
            if byte & 0x80 != 0 { return result }
            shift += 7
        }
        return nil
    }

    mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, offset + count <= data.count else { return nil }
        defer { offset += count }
        return data[offset..<(offset + count)]
    }
}
