import Foundation

/// The initial scene of an extension's storyboard (`NSExtensionMainStoryboard`), read from the
/// `.storyboard` XML: the view controller's class and module, its views, outlets and actions.
///
/// The class is what iOS instantiates; the host's handshake names it as the principal class.
/// The views are what import turns into Swift (``StoryboardSceneSource``), since the SDK reads
/// no storyboard at run time.
struct StoryboardScene: Sendable, Equatable {
    /// One view of the scene, with what import carries of it.
    struct View: Sendable, Equatable {
        /// The Interface Builder element name: `label`, `button`, `textField`, `switch`, `view`, ...
        var kind: String
        var id: String
        var customClass: String?
        /// The attributes of the element (text, placeholder, hidden, ...).
        var attributes: [String: String]
        /// A button's title for the normal state (or its configuration's).
        var title: String?
        /// True for a secure text field.
        var secure: Bool
        /// `selector` and `eventType` of each action connection.
        var actions: [Action]
        var subviews: [View]
    }

    /// An action connection: a control event that calls a method of the controller.
    struct Action: Sendable, Equatable {
        var selector: String
        var eventType: String
    }

    /// The storyboard's name, as `NSExtensionMainStoryboard` gives it.
    var storyboardName: String
    /// The view controller's `customClass`; nil when the scene uses a plain UIKit controller.
    var customClass: String?
    /// Its `customModule`; nil means the target's own module.
    var customModule: String?
    /// The controller's title, if the storyboard sets one.
    var title: String?
    /// Its root view.
    var root: View?
    /// Outlet property name -> the id of the view it points at.
    var outlets: [(property: String, destination: String)]

    static func == (lhs: StoryboardScene, rhs: StoryboardScene) -> Bool {
        lhs.storyboardName == rhs.storyboardName && lhs.customClass == rhs.customClass && lhs.customModule == rhs.customModule
            && lhs.root == rhs.root && lhs.outlets.map(\.property) == rhs.outlets.map(\.property)
            && lhs.outlets.map(\.destination) == rhs.outlets.map(\.destination)
    }

    /// The controller kinds whose scene import reads.
    static let controllerKinds: Set<String> = ["viewController", "tableViewController", "collectionViewController"]

    /// Reads the initial scene of a storyboard file.
    /// - Parameters:
    ///   - url: The `.storyboard` file.
    ///   - name: The storyboard's name, for messages.
    /// - Throws: ``ImportError`` naming the storyboard and what is missing: no initial view
    ///   controller, one that is not a view controller import reads, or one without a custom class.
    static func read(_ url: URL, name: String) throws -> StoryboardScene {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ImportError("storyboard \(name) (\(url.lastPathComponent)) cannot be read: \(error.localizedDescription)")
        }
        let document = try StoryboardXML.parse(text, source: "storyboard \(name)")
        guard let initial = document.attributes["initialViewController"] else {
            throw ImportError("storyboard \(name) has no initial view controller (Is Initial View Controller is not set), "
                              + "so iOS would show nothing; set it, or name the class in NSExtensionPrincipalClass")
        }
        guard let controller = document.descendants.first(where: { $0.attributes["id"] == initial }) else {
            throw ImportError("storyboard \(name) names \(initial) as its initial view controller, but has no object with that id")
        }
        guard controllerKinds.contains(controller.name) else {
            throw ImportError("storyboard \(name)'s initial view controller is a \(controller.name); import reads a view "
                              + "controller scene only: name the class in NSExtensionPrincipalClass")
        }
        guard let customClass = controller.attributes["customClass"] else {
            throw ImportError("storyboard \(name)'s initial view controller has no custom class, so it cannot adopt "
                              + "PKIssuerProvisioningExtensionAuthorizationProviding; set its Custom Class")
        }
        let outlets = (controller.child("connections")?.children ?? []).filter { $0.name == "outlet" }.compactMap { outlet in
            outlet.attributes["property"].flatMap { property in outlet.attributes["destination"].map { (property, $0) } }
        }
        return StoryboardScene(storyboardName: name, customClass: customClass, customModule: controller.attributes["customModule"],
                               title: controller.attributes["title"] ?? controller.child("navigationItem")?.attributes["title"],
                               root: controller.child("view", key: "view").map(view(from:)) ?? controller.child("tableView").map(view(from:)),
                               outlets: outlets)
    }

    private static func view(from element: StoryboardElement) -> View {
        let title = element.child("state", key: "normal")?.attributes["title"]
            ?? element.child("buttonConfiguration", key: "configuration")?.attributes["title"]
        let secure = element.child("textInputTraits", key: "textInputTraits")?.attributes["secureTextEntry"] == "YES"
        let actions = (element.child("connections")?.children ?? []).filter { $0.name == "action" }.compactMap { action in
            action.attributes["selector"].map { Action(selector: $0, eventType: action.attributes["eventType"] ?? "touchUpInside") }
        }
        let subviews = (element.child("subviews")?.children ?? []).map(view(from:))
        return View(kind: element.name, id: element.attributes["id"] ?? "", customClass: element.attributes["customClass"],
                    attributes: element.attributes, title: title, secure: secure, actions: actions, subviews: subviews)
    }
}
