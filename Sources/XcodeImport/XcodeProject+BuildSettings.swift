import Foundation

extension XcodeProject {
    /// The configuration `import` uses when none is named: the project's default, else Release.
    public var defaultConfiguration: String {
        defaultConfigurationName ?? (configurations["Release"] != nil ? "Release" : configurations.keys.sorted().first ?? "Release")
    }

    /// `target`'s settings in `configuration`: Xcode's defaults for its product type, the project's
    /// `.xcconfig` and settings, the target's `.xcconfig` and settings.
    /// - Throws: ``ImportError`` when the project has no such configuration or an `.xcconfig` cannot be read.
    public func buildSettings(for target: XcodeTarget, configuration: String) throws -> BuildSettings {
        var refused: [String] = []
        return try buildSettings(for: target, configuration: configuration, refused: &refused)
    }

    /// ``buildSettings(for:configuration:)``, with a line in `refused` for each `#include` of a file
    /// outside the project's ``boundary`` (not read).
    public func buildSettings(for target: XcodeTarget, configuration: String, refused: inout [String]) throws -> BuildSettings {
        guard let projectLevel = configurations[configuration] else {
            throw ImportError("\(url.lastPathComponent): no build configuration \"\(configuration)\" "
                + "(it has \(configurations.keys.sorted().joined(separator: ", ")))")
        }
        let targetLevel = target.configurations[configuration] ?? BuildConfiguration(settings: [:])
        var levels = [defaults(for: target, configuration: configuration)]
        for level in [projectLevel, targetLevel] {
            if let base = level.baseConfiguration {
                guard FileManager.default.fileExists(atPath: base.path) else {
                    refused.append(Self.missingBaseConfiguration(base, configuration: configuration))
                    levels.append(BuildSettings.applyingConditions(level.settings, configuration: configuration))
                    continue
                }
                levels.append(BuildSettings.applyingConditions(try XcconfigFile.settings(at: base, boundary: boundary, refused: &refused), configuration: configuration))
            }
            levels.append(BuildSettings.applyingConditions(level.settings, configuration: configuration))
        }
        return BuildSettings(levels: levels)
    }

    /// The line for a base configuration file that is not there: a CocoaPods project's
    /// `Pods-*.xcconfig` when `Pods/` is not committed (the usual case), or a file not checked in.
    static func missingBaseConfiguration(_ base: URL, configuration: String) -> String {
        let pods = base.pathComponents.contains("Pods")
        return "configuration \(configuration): base configuration file \(base.path) is missing, so its settings are not carried"
            + (pods ? " (CocoaPods writes it: run `pod install` first to carry them; the pods themselves are not built)" : "")
    }

    /// What Xcode sets for every target before any configuration does, for an iOS device build.
    func defaults(for target: XcodeTarget, configuration: String) -> [String: String] {
        let (wrapperExtension, packageType): (String, String) = switch target.productType {
        case XcodeTarget.applicationType: ("app", "APPL")
        case XcodeTarget.appExtensionType: ("appex", "XPC!")
        case XcodeTarget.unitTestType: ("xctest", "BNDL")
        default: ("bundle", "BNDL")
        }
        return [
            "TARGET_NAME": target.name, "TARGETNAME": target.name, "PROJECT_NAME": name, "PROJECT": name,
            "SRCROOT": sourceRoot.path, "PROJECT_DIR": sourceRoot.path, "SOURCE_ROOT": sourceRoot.path,
            "CONFIGURATION": configuration,
            "PRODUCT_NAME": "$(TARGET_NAME)", "PRODUCT_MODULE_NAME": "$(PRODUCT_NAME:c99extidentifier)",
            "EXECUTABLE_NAME": "$(PRODUCT_NAME)", "WRAPPER_EXTENSION": wrapperExtension,
            "FULL_PRODUCT_NAME": "$(PRODUCT_NAME).$(WRAPPER_EXTENSION)", "WRAPPER_NAME": "$(PRODUCT_NAME).$(WRAPPER_EXTENSION)",
            "PRODUCT_BUNDLE_PACKAGE_TYPE": packageType,
            "SDKROOT": "iphoneos", "PLATFORM_NAME": "iphoneos", "EFFECTIVE_PLATFORM_NAME": "-iphoneos",
            "DEVELOPMENT_LANGUAGE": "en",
            "AppIdentifierPrefix": "$(DEVELOPMENT_TEAM).", "TeamIdentifierPrefix": "$(DEVELOPMENT_TEAM).",
        ]
    }
}
