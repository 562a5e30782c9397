import Foundation

/// A menu or control action's base (`UIMenuElement`).
@preconcurrency @MainActor
open class UIMenuElement: NSObject {
    /// How an action is shown (`UIMenuElement.Attributes`), kept.
    public struct Attributes: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let disabled = Attributes(rawValue: 1)
        public static let destructive = Attributes(rawValue: 2)
        public static let hidden = Attributes(rawValue: 4)
    }

    /// An action's check mark (`UIMenuElement.State`), kept.
    public enum State: Int, Sendable { case off, on, mixed }

    /// The title.
    open var title: String
    /// The image.
    open var image: UIImage?

    init(title: String, image: UIImage?) {
        self.title = title
        self.image = image
        super.init()
    }
}

/// The closure an action runs (`UIActionHandler`).
public typealias UIActionHandler = @MainActor (UIAction) -> Void

/// What a control does when the user uses it (`UIAction`): its handler runs on the main thread.
@preconcurrency @MainActor
open class UIAction: UIMenuElement {
    /// An action's identifier (`UIAction.Identifier`), to remove it by.
    public struct Identifier: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
    }

    /// The identifier.
    public let identifier: Identifier
    /// Kept.
    open var discoverabilityTitle: String?
    /// Kept.
    open var attributes: Attributes
    /// Kept.
    open var state: State
    /// The control that sent the action while the handler runs.
    open private(set) var sender: Any?
    let handler: UIActionHandler

    /// An action running `handler`.
    public init(title: String = "", image: UIImage? = nil, identifier: Identifier? = nil, discoverabilityTitle: String? = nil,
                attributes: Attributes = [], state: State = .off, handler: @escaping UIActionHandler) {
        self.identifier = identifier ?? Identifier(UUID().uuidString)
        self.discoverabilityTitle = discoverabilityTitle
        self.attributes = attributes
        self.state = state
        self.handler = handler
        super.init(title: title, image: image)
    }

    func perform(sender: Any?) {
        self.sender = sender
        handler(self)
        self.sender = nil
    }
}

/// A view the user acts on (`UIControl`): actions added with ``addAction(_:for:)`` run when
/// the user agent's answer uses the control (a button tapped, a field filled, a switch set).
///
/// `addTarget(_:action:for:)` takes an Objective-C selector and does not exist here; use
/// `addAction(UIAction { _ in ... }, for: .touchUpInside)` (iOS 14) instead.
@preconcurrency @MainActor
open class UIControl: UIView {
    /// Control events (`UIControl.Event`).
    public struct Event: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let touchDown = Event(rawValue: 1 << 0)
        public static let touchDownRepeat = Event(rawValue: 1 << 1)
        public static let touchDragInside = Event(rawValue: 1 << 2)
        public static let touchDragOutside = Event(rawValue: 1 << 3)
        public static let touchDragEnter = Event(rawValue: 1 << 4)
        public static let touchDragExit = Event(rawValue: 1 << 5)
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        public static let touchCancel = Event(rawValue: 1 << 8)
        public static let valueChanged = Event(rawValue: 1 << 12)
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        public static let menuActionTriggered = Event(rawValue: 1 << 14)
        public static let editingDidBegin = Event(rawValue: 1 << 16)
        public static let editingChanged = Event(rawValue: 1 << 17)
        public static let editingDidEnd = Event(rawValue: 1 << 18)
        public static let editingDidEndOnExit = Event(rawValue: 1 << 19)
        public static let allTouchEvents = Event(rawValue: 0x0FFF)
        public static let allEditingEvents = Event(rawValue: 0xF_0000)
        public static let allEvents = Event(rawValue: 0xFFFF_FFFF)
    }

    /// Control states (`UIControl.State`).
    public struct State: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let normal = State([])
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
        public static let focused = State(rawValue: 1 << 3)
    }

    /// Horizontal alignment of the content (`UIControl.ContentHorizontalAlignment`), kept.
    public enum ContentHorizontalAlignment: Int, Sendable { case center, left, right, fill, leading, trailing }

    private var actions: [(action: UIAction, events: Event)] = []

    /// False to grey the control out: a disabled button is not offered to the user.
    open var isEnabled = true { didSet { screenDidChange() } }
    /// Selected (kept).
    open var isSelected = false
    /// Highlighted (kept).
    open var isHighlighted = false
    /// Kept.
    open var contentHorizontalAlignment = ContentHorizontalAlignment.center

    /// The control's state.
    open var state: State {
        var state = State.normal
        if !isEnabled { state.insert(.disabled) }
        if isSelected { state.insert(.selected) }
        if isHighlighted { state.insert(.highlighted) }
        return state
    }

    /// A control whose `primaryAction` runs on its primary event.
    public convenience init(frame: CGRect, primaryAction: UIAction?) {
        self.init(frame: frame)
        if let primaryAction { addAction(primaryAction, for: .primaryActionTriggered) }
    }

    /// Runs `action` on `controlEvents`.
    open func addAction(_ action: UIAction, for controlEvents: Event) {
        actions.append((action, controlEvents))
    }

    /// Stops running `action` on `controlEvents`.
    open func removeAction(_ action: UIAction, for controlEvents: Event) {
        removeAction(identifiedBy: action.identifier, for: controlEvents)
    }

    /// Stops running the action identified by `actionIdentifier` on `controlEvents`.
    open func removeAction(identifiedBy actionIdentifier: UIAction.Identifier, for controlEvents: Event) {
        actions = actions.compactMap { entry in
            guard entry.action.identifier == actionIdentifier else { return entry }
            let remaining = entry.events.subtracting(controlEvents)
            return remaining.isEmpty ? nil : (entry.action, remaining)
        }
    }

    /// Runs the actions registered for any of `controlEvents`, in the order added.
    open func sendActions(for controlEvents: Event) {
        for entry in actions where !entry.events.isDisjoint(with: controlEvents) {
            entry.action.perform(sender: self)
        }
    }

    /// Runs `action` as sent by this control.
    open func sendAction(_ action: UIAction) {
        action.perform(sender: self)
    }
}

/// An on/off switch (`UISwitch`): a yes/no field of the form.
@preconcurrency @MainActor
open class UISwitch: UIControl {
    /// On or off.
    open var isOn = false { didSet { screenDidChange() } }
    /// Kept.
    open var onTintColor: UIColor?
    /// Kept.
    open var thumbTintColor: UIColor?
    /// A label shown beside the switch (Mac Catalyst); the field's label in the form when set.
    open var title: String?
    /// 51 x 31 pt, as iOS's.
    open override var intrinsicContentSize: CGSize { CGSize(width: 51, height: 31) }

    /// Sets the switch without sending `valueChanged`, as UIKit does for code.
    open func setOn(_ on: Bool, animated: Bool) {
        isOn = on
    }
}
