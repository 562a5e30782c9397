import Foundation

/// Finds and reads the storyboard a UI extension names in `NSExtensionMainStoryboard` when it
/// has no `NSExtensionPrincipalClass`: iOS instantiates the initial view controller of that
/// storyboard, so its custom class is the principal class, and its scene is what import turns
/// into Swift (``StoryboardSceneSource``).
enum StoryboardImport {
    /// The initial scene of storyboard `name` among `target`'s Interface Builder files.
    /// - Parameters:
    ///   - name: `NSExtensionMainStoryboard` (`MainInterface`).
    ///   - target: The extension's target.
    ///   - moduleName: The target's module: a `customModule` other than it is refused.
    /// - Throws: ``ImportError`` naming the storyboard and what is missing.
    static func scene(named name: String, in target: XcodeTarget, moduleName: String) throws -> StoryboardScene {
        let fileName = name.hasSuffix(".storyboard") ? name : "\(name).storyboard"
        guard let listed = target.interfaceBuilderFiles.first(where: { $0.lastPathComponent == fileName }) else {
            let others = target.interfaceBuilderFiles.map(\.lastPathComponent)
            throw ImportError("NSExtensionMainStoryboard names the storyboard \(name), but the target has no \(fileName)"
                              + (others.isEmpty ? " (it has no storyboard)" : " (it has \(others.joined(separator: ", ")))")
                              + "; add it to the target, or name the class in NSExtensionPrincipalClass")
        }
        let url = [listed, listed.deletingLastPathComponent().appendingPathComponent("Base.lproj/\(fileName)")]
            .first { FileManager.default.fileExists(atPath: $0.path) } ?? listed
        let scene = try StoryboardScene.read(url, name: name)
        guard let customClass = scene.customClass else { return scene }
        if let problem = ImportedNames.identifierProblem(customClass) {
            throw ImportError("storyboard \(name)'s initial view controller has the custom class \(ImportedNames.quoted(customClass)), "
                              + "which \(problem)")
        }
        if let module = scene.customModule, module != moduleName {
            throw ImportError("storyboard \(name)'s initial view controller is \(module).\(customClass), from a module other than "
                              + "the extension's own (\(moduleName)); import builds one module per extension")
        }
        return scene
    }

    /// The `not carried:` line of the storyboard whose scene import carries, replaced by what it carries.
    static func carriedLine(_ scene: StoryboardScene) -> String {
        "storyboard \(scene.storyboardName): its initial scene (\(scene.customClass ?? "UIViewController")) "
            + "is carried as generated Swift (StoryboardScenes.swift): views, text, outlets and actions; layout constraints, "
            + "segues and other scenes are not"
    }
}
