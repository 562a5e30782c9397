import Dispatch

// Modifiers that change how a view looks (shadows, blur, scale, safe areas, corner radii, list
// row backgrounds), accepted with SwiftUI's signatures; the form is unchanged by them.

/// Insets on four sides in reading direction (`EdgeInsets`).
public struct EdgeInsets: Hashable, Sendable {
    public var top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }
    public init() { self.init(top: 0, leading: 0, bottom: 0, trailing: 0) }
}

/// The safe areas a view can extend into (`SafeAreaRegions`).
public struct SafeAreaRegions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let container = SafeAreaRegions(rawValue: 1), keyboard = SafeAreaRegions(rawValue: 2)
    public static let all: SafeAreaRegions = [.container, .keyboard]
}

/// How VoiceOver sees a view's children (`AccessibilityChildBehavior`).
public struct AccessibilityChildBehavior: Hashable, Sendable {
    let name: String
    public static let ignore = AccessibilityChildBehavior(name: "ignore")
    public static let contain = AccessibilityChildBehavior(name: "contain")
    public static let combine = AccessibilityChildBehavior(name: "combine")
}

extension View {
    /// Bold text inside (`bold(_:)` on any view, iOS 16).
    public func bold(_ isActive: Bool = true) -> Self { self }
    /// Italic text inside.
    public func italic(_ isActive: Bool = true) -> Self { self }
    /// Extends into the safe area of `edges` (the pre-iOS 14 name).
    public func edgesIgnoringSafeArea(_ edges: Edge.Set) -> Self { self }
    /// Extends into the safe areas `regions` of `edges`.
    public func ignoresSafeArea(_ regions: SafeAreaRegions = .all, edges: Edge.Set = .all) -> Self { self }
    /// Brighter or darker.
    public func brightness(_ amount: Double) -> Self { self }
    /// Blurred.
    public func blur(radius: CGFloat, opaque: Bool = false) -> Self { self }
    /// Drawn at `scale` around `anchor`.
    public func scaleEffect(_ scale: CGFloat, anchor: UnitPoint = .center) -> Self { self }
    /// Drawn at `scale` (per axis) around `anchor`.
    public func scaleEffect(_ scale: CGSize, anchor: UnitPoint = .center) -> Self { self }
    /// Drawn at `x` by `y` around `anchor`.
    public func scaleEffect(x: CGFloat = 1, y: CGFloat = 1, anchor: UnitPoint = .center) -> Self { self }
    /// Rotated (kept).
    public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> Self { self }
    /// Where the view takes touches: `shape`.
    public func contentShape<S: Shape>(_ shape: S, eoFill: Bool = false) -> Self { self }
    /// The background of the list row the view is in.
    public func listRowBackground<V: View>(_ view: V?) -> Self { self }
    /// The list row's separator (kept).
    public func listRowSeparator(_ visibility: Visibility, edges: VerticalEdge.Set = .all) -> Self { self }
    /// The list row's insets (kept).
    public func listRowInsets(_ insets: EdgeInsets?) -> Self { self }
    /// The layering order (kept).
    public func zIndex(_ value: Double) -> Self { self }
    /// Groups the view's children as VoiceOver does (kept).
    public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> Self { self }
    /// A hint VoiceOver reads (kept).
    public func accessibilityHint(_ hint: Text) -> Self { self }
    /// A hint VoiceOver reads (kept).
    public func accessibilityHint(_ hintKey: LocalizedStringKey) -> Self { self }
    /// Hidden from VoiceOver (kept).
    public func accessibilityHidden(_ hidden: Bool) -> Self { self }

    /// Labels the control inside, as `accessibilityLabel(Text(labelKey))`.
    public func accessibilityLabel(_ labelKey: LocalizedStringKey) -> ModifiedContent<Self, FormModifier> {
        accessibilityLabel(Text(labelKey))
    }

    /// Labels the control inside, as `accessibilityLabel(Text(label))`.
    public func accessibilityLabel<S: StringProtocol>(_ label: S) -> ModifiedContent<Self, FormModifier> {
        accessibilityLabel(Text(label))
    }
}

/// Shown, hidden or chosen by the system (`Visibility`).
public enum Visibility: Hashable, Sendable { case automatic, visible, hidden }

/// Top or bottom (`VerticalEdge`).
public enum VerticalEdge: Sendable {
    case top, bottom
    /// A set of vertical edges.
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let top = Set(rawValue: 1), bottom = Set(rawValue: 2), all: Set = [.top, .bottom]
    }
}

/// An angle (`Angle`).
public struct Angle: Hashable, Sendable {
    public var radians: Double
    public var degrees: Double { radians * 180 / .pi }
    public init(radians: Double) { self.radians = radians }
    public init(degrees: Double) { radians = degrees * .pi / 180 }
    public static func degrees(_ degrees: Double) -> Angle { Angle(degrees: degrees) }
    public static func radians(_ radians: Double) -> Angle { Angle(radians: radians) }
    public static let zero = Angle(radians: 0)
}

extension Font.Weight {
    /// The thinnest weight.
    public static let ultraLight = Font.Weight(value: -0.8)
    /// Thinner than light.
    public static let thin = Font.Weight(value: -0.6)
    /// The heaviest weight.
    public static let black = Font.Weight(value: 0.62)
}

extension View {
    /// Runs `action` with the new value after a render in which `value` changed (iOS 14's form).
    public func onChange<V: Equatable>(of value: V, perform action: @escaping (_ newValue: V) -> Void)
        -> ModifiedContent<Self, FormModifier> {
        onChange(of: value, initial: false) { _, newValue in action(newValue) }
    }

    /// Runs `action` after a render in which `value` changed (iOS 17's form).
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping () -> Void)
        -> ModifiedContent<Self, FormModifier> {
        onChange(of: value, initial: initial) { _, _ in action() }
    }

    /// Runs `action` with the old and new values after a render in which `value` changed, and
    /// on the first render too when `initial`; on the next turn of the main queue, as SwiftUI
    /// runs it after the update.
    public func onChange<V: Equatable>(of value: V, initial: Bool = false, _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void)
        -> ModifiedContent<Self, FormModifier> {
        ModifiedContent(content: self) { renderer, render in
            var isFirst = false
            let slot = renderer.host.slot(for: renderer.path + "/onChange") {
                isFirst = true
                return value
            }
            let oldValue = slot.value as? V ?? value
            slot.value = value
            if isFirst ? initial : oldValue != value {
                nonisolated(unsafe) let changed = action
                nonisolated(unsafe) let values = (oldValue, value)
                DispatchQueue.main.async { changed(values.0, values.1) }
            }
            render(&renderer)
        }
    }
}
