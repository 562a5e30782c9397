import Dispatch

/// Renders a view tree into UIKit views, in order: what the screen's form is read from.
@MainActor
struct Renderer {
    let host: HostingState
    /// The view's place in the tree: the key of its state.
    private(set) var path = ""
    var environment: EnvironmentValues
    /// The UIKit views made so far.
    var views: [UIView] = []
    /// Set by `.accessibilityIdentifier(_:)` for the controls inside.
    var accessibilityIdentifier: String?
    /// Set by `.accessibilityLabel(_:)` for the controls inside.
    var accessibilityLabel: String?
    /// Set by `.keyboardType(_:)`, `.textContentType(_:)` and friends: kept, not shown.
    var isHidden = false

    init(host: HostingState, environment: EnvironmentValues) {
        self.host = host
        self.environment = environment
    }

    /// Renders `view` as the child `component` of the current place.
    mutating func render(_ view: any View, as component: String) {
        let parent = path
        path += "/" + component
        defer { path = parent }
        if let primitive = view as? any PrimitiveView {
            primitive.render(into: &self)
        } else {
            renderComposite(view)
        }
    }

    private mutating func renderComposite<V: View>(_ view: V) {
        host.link(view, path: path, environment: environment)
        render(view.body, as: String(describing: V.self))
    }

    /// Adds a UIKit view made for a primitive view.
    mutating func add(_ view: UIView) {
        if let accessibilityIdentifier, view is UIControl { view.accessibilityIdentifier = accessibilityIdentifier }
        if let accessibilityLabel, view is UIControl { view.accessibilityLabel = accessibilityLabel }
        if isHidden { view.isHidden = true }
        views.append(view)
    }

    /// The text a label view shows (the first `Text` in it), for button and toggle titles.
    func text(of view: any View) -> String? {
        labelViews(of: view).flatMap(\.labelsInside).first?.text
    }

    /// The views `view` renders to, made to be looked into (a button's label), not shown.
    func labelViews(of view: any View) -> [UIView] {
        var probe = Renderer(host: host, environment: environment)
        probe.path = path + "/label"
        probe.render(view, as: "label")
        return probe.views
    }

    /// Renders `view` as the child `component` and returns the views it made, for a container
    /// to hold; they are not added here.
    mutating func renderChildren(_ view: any View, as component: String) -> [UIView] {
        let outer = views
        views = []
        render(view, as: component)
        let children = views
        views = outer
        return children
    }

    /// Renders `view` with `change` applied to each view it makes (each, as a modifier on a
    /// group applies to each of its views).
    mutating func render(_ view: any View, as component: String, changingEach change: (UIView) -> UIView) {
        let start = views.count
        render(view, as: component)
        for index in start..<views.count { views[index] = change(views[index]) }
    }
}

/// A hosting controller's state: the storage of each `@State` and `@StateObject` by its place
/// in the tree, the objects observed, and renders scheduled after a change.
@MainActor
final class HostingState {
    private var slots: [String: StateSlot] = [:]
    private var observations: [String: (object: ObjectIdentifier, cancellable: AnyCancellable)] = [:]
    private var renderScheduled = false
    /// Places whose `.onAppear` has run.
    var appeared: Set<String> = []
    /// Set by `.navigationTitle(_:)` while rendering.
    var navigationTitle: String?
    /// Renders again; set by the hosting controller.
    var render: () -> Void = {}
    /// True when a change is waiting to be rendered.
    var needsRender: Bool { renderScheduled }

    func slot(for key: String, initial: () -> Any) -> StateSlot {
        if let slot = slots[key] { return slot }
        let slot = StateSlot(value: initial(), changed: Self.changeNotifier(for: self))
        slots[key] = slot
        return slot
    }

    /// Renders again on the next turn of the main queue when `object` is about to change.
    func observe<Object: ObservableObject>(_ object: Object, key: String)
    where Object.ObjectWillChangePublisher == ObservableObjectPublisher {
        let identifier = ObjectIdentifier(object)
        if observations[key]?.object == identifier { return }
        let changed = Self.changeNotifier(for: self)
        observations[key] = (identifier, object.objectWillChange.sink { changed() })
    }

    /// Links the dynamic properties of `view` (at `path`) to their storage.
    func link<V: View>(_ view: V, path: String, environment: EnvironmentValues) {
        for child in Mirror(reflecting: view).children {
            guard let property = child.value as? any LinkedProperty else { continue }
            property.link(to: self, key: "\(path).\(child.label ?? "?")", environment: environment)
        }
    }

    /// Schedules a render; changes made in one turn of the main queue render once.
    func invalidate() {
        guard !renderScheduled else { return }
        renderScheduled = true
        DispatchQueue.main.async {
            MainActor.assumeIsolated { self.renderIfNeeded() }
        }
    }

    /// Renders now if a change is waiting.
    func renderIfNeeded() {
        guard renderScheduled else { return }
        renderScheduled = false
        render()
    }

    private static func changeNotifier(for host: HostingState) -> @Sendable () -> Void {
        let weakHost = WeakHost(host)
        return {
            // The main queue, not the main thread: on Linux dispatchMain() serves the main queue
            // from a worker thread. A change made there must be pending at once, so that the
            // user agent's tap sees the render it causes.
            if MainQueue.isCurrent {
                MainActor.assumeIsolated { weakHost.host?.invalidate() }
            } else {
                DispatchQueue.main.async { MainActor.assumeIsolated { weakHost.host?.invalidate() } }
            }
        }
    }
}

/// A weak reference to a hosting state, carried to the main queue.
private final class WeakHost: @unchecked Sendable {
    // @unchecked: the reference is only followed on the main thread.
    weak var host: HostingState?
    init(_ host: HostingState) { self.host = host }
}

/// Whether code runs on the main queue (whatever thread serves it).
enum MainQueue {
    private static let key = DispatchSpecificKey<Bool>()
    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()

    static var isCurrent: Bool {
        _ = marked
        return DispatchQueue.getSpecific(key: key) == true
    }
}
