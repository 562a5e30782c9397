import Foundation
import WalletWire

/// Reads the bundles of a device build out of its file tree: Info.plist (XML or binary), the
/// Mach-O executable with the entitlements signed into it, and `embedded.mobileprovision`.
struct DeviceBundleReader {
    var tree: any BuildFileTree

    /// The largest executable read: 1 GiB (big banking apps are a few hundred megabytes).
    static let executableByteLimit = 1 << 30
    /// The largest Info.plist, loose entitlements file or provisioning profile read.
    static let manifestByteLimit = PropertyListFile.byteLimit

    private typealias Key = ValidationFinding.Key

    /// Reads one bundle, adding a finding for everything that could not be read.
    /// - Returns: nil when the bundle has no usable Info.plist.
    func read(bundleAt path: String, findings: inout [ValidationFinding]) -> DeviceBundle? {
        let infoPath = treePath(path, "Info.plist")
        let info: [String: PropertyListValue]
        switch propertyList(at: infoPath, missing: "missing; every bundle needs an Info.plist") {
        case .success(let read):
            info = read.values
            for key in read.duplicateKeys {
                findings.append(.error, .infoPlist, tree.displayPath(infoPath), key, PropertyListDuplicateKeys.problem)
            }
        case .failure(let problem):
            findings.append(.error, .infoPlist, tree.displayPath(infoPath), Key.file, problem.description)
            return nil
        }
        let bundleIdentifier = requiredString(info, Key.bundleIdentifier, infoPath: infoPath, findings: &findings)
        let executableName = requiredString(info, Key.bundleExecutable, infoPath: infoPath, findings: &findings)
        var bundle = DeviceBundle(
            path: path, name: String(path.split(separator: "/").last ?? Substring(path)),
            infoPath: tree.displayPath(infoPath), info: info, bundleIdentifier: bundleIdentifier,
            executablePath: nil, executable: nil, entitlements: nil, entitlementsPath: tree.displayPath(path),
            profile: nil, profilePath: tree.displayPath(treePath(path, "embedded.mobileprovision")))
        if let executableName {
            readExecutable(named: executableName, into: &bundle, findings: &findings)
        }
        if bundle.entitlements == nil {
            readLooseEntitlements(into: &bundle, findings: &findings)
        }
        readProfile(into: &bundle, findings: &findings)
        return bundle
    }

    private func requiredString(_ info: [String: PropertyListValue], _ key: String, infoPath: String, findings: inout [ValidationFinding]) -> String? {
        guard let value = info[key] else {
            findings.append(.error, .infoPlist, tree.displayPath(infoPath), key, "missing; the device refuses to install a bundle without it")
            return nil
        }
        guard let string = value.stringValue, !string.isEmpty else {
            findings.append(.error, .infoPlist, tree.displayPath(infoPath), key, "is \(value.typeName == "string" ? "empty" : value.typeName), not a non-empty string")
            return nil
        }
        return string
    }

    private func readExecutable(named name: String, into bundle: inout DeviceBundle, findings: inout [ValidationFinding]) {
        let infoPath = bundle.infoPath
        guard !name.contains("/"), name != "..", name != "." else {
            findings.append(.error, .infoPlist, infoPath, Key.bundleExecutable, "\"\(name)\" is not a file name inside the bundle")
            return
        }
        let path = treePath(bundle.path, name)
        let displayPath = tree.displayPath(path)
        bundle.executablePath = displayPath
        bundle.entitlementsPath = displayPath
        let data: Data
        do {
            data = try tree.read(path, limit: Self.executableByteLimit)
        } catch {
            findings.append(.error, .codeSignature, displayPath, Key.file,
                            error == .missing ? "missing; CFBundleExecutable names it, so the device refuses to install the app" : error.description)
            return
        }
        let executable: MachOExecutable
        do {
            executable = try MachOExecutable(data: data)
        } catch {
            findings.append(.error, .codeSignature, displayPath, Key.file, error.description)
            return
        }
        bundle.executable = executable
        guard let slice = executable.deviceSlice else {
            let architectures = executable.slices.map(\.architectureName).joined(separator: ", ")
            findings.append(.error, .devicePlatform, displayPath, Key.file,
                            "has no arm64 code (only \(architectures)), so no iPhone can run it; this is a simulator or Mac build")
            return
        }
        guard let signature = slice.signature else {
            findings.append(.error, .codeSignature, displayPath, Key.file,
                            "has no LC_CODE_SIGNATURE: the \(slice.architectureName) code is unsigned, so the device refuses to install the app")
            return
        }
        guard signature.hasCodeDirectory else {
            findings.append(.error, .codeSignature, displayPath, Key.file,
                            "has a code signature without a CodeDirectory (0xfade0c02), which is what a device verifies; it refuses to install the app")
            return
        }
        guard let propertyList = signature.entitlementsPropertyList else {
            if signature.hasDEREntitlements {
                findings.append(.warning, .codeSignature, displayPath, Key.file,
                                "signs its entitlements only in DER form (0xfade7172), which validate does not decode; the entitlement checks were skipped for this bundle")
            } else {
                bundle.entitlements = [:]  // signed without entitlements: every one is missing
            }
            return
        }
        switch Self.dictionary(from: propertyList) {
        case .success(let values):
            bundle.entitlements = values
            for key in PropertyListDuplicateKeys.find(in: propertyList) {
                findings.append(.error, .codeSignature, displayPath, key, "in the signed entitlements (0xfade7171) "
                                + PropertyListDuplicateKeys.problem)
            }
        case .failure(let problem):
            findings.append(.error, .codeSignature, displayPath, Key.file, "has signed entitlements (0xfade7171) that \(problem.description)")
        }
        for other in executable.slices where other.signature?.entitlementsPropertyList != propertyList && other.cpuType != slice.cpuType {
            findings.append(.warning, .codeSignature, displayPath, Key.file,
                            "signs different entitlements into its \(other.architectureName) slice than into \(slice.architectureName); a device uses \(slice.architectureName)'s")
        }
    }

    /// The source-layout fallback: a `.entitlements` file in the bundle, used only when the
    /// executable yielded no signed entitlements (an error already says why).
    private func readLooseEntitlements(into bundle: inout DeviceBundle, findings: inout [ValidationFinding]) {
        guard let name = tree.childNames(of: bundle.path).first(where: { $0.hasSuffix(".entitlements") }) else { return }
        let path = treePath(bundle.path, name)
        switch propertyList(at: path, missing: "disappeared while being read") {
        case .success(let read):
            bundle.entitlements = read.values
            bundle.entitlementsPath = tree.displayPath(path)
            for key in read.duplicateKeys {
                findings.append(.error, .codeSignature, tree.displayPath(path), key, PropertyListDuplicateKeys.problem)
            }
            bundle.entitlementsAreSigned = false
            findings.append(.note, .codeSignature, tree.displayPath(path), Key.file,
                            "checked in place of signed entitlements; a device reads only those signed into the executable")
        case .failure(let problem):
            findings.append(.error, .codeSignature, tree.displayPath(path), Key.file, problem.description)
        }
    }

    private func readProfile(into bundle: inout DeviceBundle, findings: inout [ValidationFinding]) {
        let path = treePath(bundle.path, "embedded.mobileprovision")
        guard tree.isFile(path) else { return }
        do {
            let data = try tree.read(path, limit: Self.manifestByteLimit)
            bundle.profile = try ProvisioningProfile(cmsEnvelope: data)
        } catch let error as BuildFileError {
            findings.append(.error, .provisioningProfile, bundle.profilePath, Key.file, error.description)
        } catch {
            findings.append(.error, .provisioningProfile, bundle.profilePath, Key.file, "\(error)")
        }
    }

    /// A problem with a property list file, as a sentence fragment completing "PATH ...".
    struct PropertyListProblem: Error, CustomStringConvertible {
        var description: String
    }

    /// The dictionary of the property list file at `path`, and the keys a dictionary in it holds twice.
    private func propertyList(at path: String, missing: String)
        -> Result<(values: [String: PropertyListValue], duplicateKeys: [String]), PropertyListProblem> {
        do {
            let data = try tree.read(path, limit: Self.manifestByteLimit)
            return Self.dictionary(from: data).map { ($0, PropertyListDuplicateKeys.find(in: data)) }
        } catch {
            return .failure(PropertyListProblem(description: error == .missing ? missing : error.description))
        }
    }

    /// Parses an XML or binary property list whose top level must be a dictionary.
    static func dictionary(from data: Data) -> Result<[String: PropertyListValue], PropertyListProblem> {
        guard !data.isEmpty else { return .failure(PropertyListProblem(description: "is empty")) }
        let parsed: Any
        do {
            parsed = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            let reason = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            return .failure(PropertyListProblem(description: "is not a valid XML or binary property list (\(reason))"))
        }
        guard let value = PropertyListValue(foundationValue: parsed) else {
            return .failure(PropertyListProblem(description: "holds a value that is not a property list type"))
        }
        guard case .dictionary(let dictionary) = value else {
            return .failure(PropertyListProblem(description: "has \(value.typeName) at its top level, not a dictionary"))
        }
        return .success(dictionary)
    }
}
