import Foundation

/// The Info.plist and entitlements Xcode would put in a target's bundle: the `INFOPLIST_FILE`
/// merged with what `GENERATE_INFOPLIST_FILE` and the `INFOPLIST_KEY_*` settings produce, the keys
/// Xcode always writes, and every build variable expanded; `CODE_SIGN_ENTITLEMENTS` with
/// `$(AppIdentifierPrefix)` and `$(TeamIdentifierPrefix)` from `DEVELOPMENT_TEAM` and what signing adds.
struct ManifestBuilder {
    let settings: BuildSettings
    let sourceRoot: URL
    /// An `INFOPLIST_FILE` or `CODE_SIGN_ENTITLEMENTS` outside it is not read (an error naming it).
    let boundary: ProjectBoundary

    /// The bundle's Info.plist, expanded.
    /// - Throws: ``ImportError`` naming an `INFOPLIST_FILE` that cannot be read.
    func infoPlist(targetName: String) throws -> [String: Any] {
        var info: [String: Any] = [:]
        if try settings.isEnabled("GENERATE_INFOPLIST_FILE") {
            info = try generatedKeys()
        }
        if let path = try settings["INFOPLIST_FILE"], !path.isEmpty {
            // The file's own values win over generated ones, as in Xcode.
            info.merge(try propertyList(at: path, setting: "INFOPLIST_FILE", target: targetName)) { _, fromFile in fromFile }
        }
        // What Xcode's Info.plist processing always sets from the build settings.
        info["CFBundleExecutable"] = "$(EXECUTABLE_NAME)"
        info["CFBundleIdentifier"] = "$(PRODUCT_BUNDLE_IDENTIFIER)"
        info["CFBundlePackageType"] = "$(PRODUCT_BUNDLE_PACKAGE_TYPE)"
        if info["CFBundleName"] == nil { info["CFBundleName"] = "$(PRODUCT_NAME)" }
        if info["CFBundleInfoDictionaryVersion"] == nil { info["CFBundleInfoDictionaryVersion"] = "6.0" }
        if let deployment = try settings["IPHONEOS_DEPLOYMENT_TARGET"], !deployment.isEmpty { info["MinimumOSVersion"] = deployment }
        return try expanded(info) as? [String: Any] ?? [:]
    }

    /// The bundle's entitlements, expanded, with the application and team identifiers signing adds;
    /// nil when the target has no `CODE_SIGN_ENTITLEMENTS` and no team.
    /// - Throws: ``ImportError`` naming a `CODE_SIGN_ENTITLEMENTS` file that cannot be read.
    func entitlements(targetName: String) throws -> [String: Any]? {
        var entitlements: [String: Any]?
        if let path = try settings["CODE_SIGN_ENTITLEMENTS"], !path.isEmpty {
            entitlements = try expanded(try propertyList(at: path, setting: "CODE_SIGN_ENTITLEMENTS", target: targetName)) as? [String: Any]
        }
        if let team = try settings["DEVELOPMENT_TEAM"], !team.isEmpty, let identifier = try settings["PRODUCT_BUNDLE_IDENTIFIER"] {
            var signed = entitlements ?? [:]
            signed["application-identifier"] = "\(team).\(identifier)"
            signed["com.apple.developer.team-identifier"] = team
            entitlements = signed
        }
        return entitlements
    }

    /// `GENERATE_INFOPLIST_FILE`: Xcode's standard keys and one key per `INFOPLIST_KEY_<key>` setting.
    private func generatedKeys() throws -> [String: Any] {
        var info: [String: Any] = [
            "CFBundleDevelopmentRegion": "$(DEVELOPMENT_LANGUAGE)",
            "CFBundleInfoDictionaryVersion": "6.0",
            "CFBundleName": "$(PRODUCT_NAME)",
        ]
        if try settings["MARKETING_VERSION"] != nil { info["CFBundleShortVersionString"] = "$(MARKETING_VERSION)" }
        if try settings["CURRENT_PROJECT_VERSION"] != nil { info["CFBundleVersion"] = "$(CURRENT_PROJECT_VERSION)" }
        let prefix = "INFOPLIST_KEY_"
        let names = Set(settings.levels.flatMap(\.keys)).filter { $0.hasPrefix(prefix) }
        for name in names.sorted() {
            guard let value = try settings[name] else { continue }
            let key = String(name.dropFirst(prefix.count))
            // Booleans are written YES/NO in build settings and as booleans in the plist.
            switch value.uppercased() {
            case "YES": info[key] = true
            case "NO": info[key] = false
            default: info[key] = value
            }
        }
        return info
    }

    /// The `INFOPLIST_FILE` and `CODE_SIGN_ENTITLEMENTS` files the target names: read, never copied as resources.
    func manifestFiles() throws -> [URL] {
        try ["INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS"].compactMap { setting in
            try settings[setting].flatMap { $0.isEmpty ? nil : url(of: $0) }
        }
    }

    private func url(of path: String) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : sourceRoot.appendingPathComponent(path).standardizedFileURL
    }

    private func propertyList(at path: String, setting: String, target: String) throws -> [String: Any] {
        let url = url(of: path)
        if let refusal = boundary.refusal(of: url, what: "\(setting)") {
            throw ImportError("target \(target): \(refusal)")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ImportError("target \(target): \(setting) \(path): no such file (looked at \(url.path))")
        }
        guard let dictionary = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            throw ImportError("target \(target): \(setting) \(url.path) is not a property list dictionary")
        }
        return dictionary
    }

    /// `value` with every string in it expanded.
    func expanded(_ value: Any) throws -> Any {
        if let string = value as? String { return try settings.expand(string) }
        if let array = value as? [Any] { return try array.map(expanded) }
        if let dictionary = value as? [String: Any] { return try dictionary.mapValues(expanded) }
        return value
    }
}
