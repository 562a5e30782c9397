/// Horizontal alignment (`HorizontalAlignment`), kept.
public struct HorizontalAlignment: Hashable, Sendable {
    let name: String
    public static let leading = HorizontalAlignment(name: "leading"), center = HorizontalAlignment(name: "center")
    public static let trailing = HorizontalAlignment(name: "trailing")
}

/// Vertical alignment (`VerticalAlignment`), kept.
public struct VerticalAlignment: Hashable, Sendable {
    let name: String
    public static let top = VerticalAlignment(name: "top"), center = VerticalAlignment(name: "center")
    public static let bottom = VerticalAlignment(name: "bottom"), firstTextBaseline = VerticalAlignment(name: "firstTextBaseline")
}

/// Two-dimensional alignment (`Alignment`), kept.
public struct Alignment: Hashable, Sendable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }
    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
}

/// A view that shows its content in order: the stacks, forms, lists, scroll and navigation
/// views all read as their content, top to bottom.
public struct ContainerView<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let content: Content
    let kind: String
    func render(into renderer: inout Renderer) { renderer.render(content, as: kind) }
}

/// A column (`VStack`).
public typealias VStack<Content: View> = ContainerView<Content>
/// A row (`HStack`).
public typealias HStack<Content: View> = ContainerView<Content>
/// Layers (`ZStack`).
public typealias ZStack<Content: View> = ContainerView<Content>
/// A lazy column (`LazyVStack`).
public typealias LazyVStack<Content: View> = ContainerView<Content>
/// A form (`Form`).
public typealias Form<Content: View> = ContainerView<Content>
/// A list (`List`).
public typealias List<Content: View> = ContainerView<Content>
/// A navigation container (`NavigationView`).
public typealias NavigationView<Content: View> = ContainerView<Content>
/// A navigation stack (`NavigationStack`).
public typealias NavigationStack<Content: View> = ContainerView<Content>

extension ContainerView {
    /// A column, row or layers of `content`; alignment and spacing are kept.
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.init(content: content(), kind: "stack")
    }

    /// A row of `content`.
    public init(alignment: VerticalAlignment, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.init(content: content(), kind: "stack")
    }

    /// Layers of `content`.
    public init(alignment: Alignment, @ViewBuilder content: () -> Content) {
        self.init(content: content(), kind: "stack")
    }

    /// A form, list or navigation view of `content`.
    public init(@ViewBuilder content: () -> Content) {
        self.init(content: content(), kind: "stack")
    }
}

/// A scrolling view (`ScrollView`): its content reads as it is.
public struct ScrollView<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let content: Content
    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {
        self.content = content()
    }
    func render(into renderer: inout Renderer) { renderer.render(content, as: "scroll") }
}

/// Axes (`Axis`).
public enum Axis: Sendable {
    case horizontal, vertical
    /// A set of axes (`Axis.Set`).
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let horizontal = Set(rawValue: 1), vertical = Set(rawValue: 2)
    }
}

/// A section of a form or list (`Section`): its header's and footer's text are lines of the form.
public struct Section<Parent: View, Content: View, Footer: View>: View, PrimitiveView {
    public typealias Body = Never
    let header: Parent?
    let content: Content
    let footer: Footer?

    public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent, @ViewBuilder footer: () -> Footer) {
        self.header = header()
        self.content = content()
        self.footer = footer()
    }

    func render(into renderer: inout Renderer) {
        if let header { renderer.render(header, as: "header") }
        renderer.render(content, as: "content")
        if let footer { renderer.render(footer, as: "footer") }
    }
}

extension Section where Parent == EmptyView, Footer == EmptyView {
    public init(@ViewBuilder content: () -> Content) {
        header = nil
        self.content = content()
        footer = nil
    }
}

extension Section where Parent == Text, Footer == EmptyView {
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) {
        header = Text(titleKey)
        self.content = content()
        footer = nil
    }
}

extension Section where Footer == EmptyView {
    public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent) {
        self.header = header()
        self.content = content()
        footer = nil
    }
    public init(header: Parent, @ViewBuilder content: () -> Content) {
        self.header = header
        self.content = content()
        footer = nil
    }
}
