/// Horizontal alignment (`HorizontalAlignment`).
public struct HorizontalAlignment: Hashable, Sendable {
    let name: String
    public static let leading = HorizontalAlignment(name: "leading"), center = HorizontalAlignment(name: "center")
    public static let trailing = HorizontalAlignment(name: "trailing")
}

/// Vertical alignment (`VerticalAlignment`).
public struct VerticalAlignment: Hashable, Sendable {
    let name: String
    public static let top = VerticalAlignment(name: "top"), center = VerticalAlignment(name: "center")
    public static let bottom = VerticalAlignment(name: "bottom"), firstTextBaseline = VerticalAlignment(name: "firstTextBaseline")
}

/// Two-dimensional alignment (`Alignment`).
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
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)
}

/// What a ``ContainerView`` is: the type that tells a `VStack` from an `HStack` or a `List`.
public protocol ContainerKind {}
/// A column's kind.
public enum ColumnKind: ContainerKind {}
/// A row's kind.
public enum RowKind: ContainerKind {}
/// Layers' kind.
public enum LayersKind: ContainerKind {}
/// A grouped list's kind (`List`, `Form`).
public enum GroupedListKind: ContainerKind {}
/// A navigation container's kind.
public enum NavigationKind: ContainerKind {}

/// A view that lays out its content (``StackLayoutView``, ``ListLayoutView``,
/// ``NavigationLayoutView``); the form reads the content in order, top to bottom, as before.
public struct ContainerView<Content: View, Kind: ContainerKind>: View, PrimitiveView {
    public typealias Body = Never
    enum Layout { case stack(StackLayoutView.Axis, spacing: CGFloat?, Alignment), list, navigation }
    let content: Content
    let layout: Layout

    func render(into renderer: inout Renderer) {
        let children = renderer.renderChildren(content, as: "stack")
        switch layout {
        case .stack(let axis, let spacing, let alignment):
            let stack = StackLayoutView(axis: axis, spacing: spacing, alignment: (alignment.horizontal.fraction, alignment.vertical.fraction))
            children.forEach(stack.addSubview)
            renderer.add(stack)
        case .list:
            renderer.add(ListLayoutView(rows: children))
        case .navigation:
            let content = children.count == 1 ? children[0] : StackLayoutView(axis: .vertical, spacing: nil, alignment: (0.5, 0.5))
            if children.count != 1 { children.forEach(content.addSubview) }
            renderer.add(NavigationLayoutView(content: content, title: renderer.host.navigationTitle))
        }
    }
}

/// A column (`VStack`).
public typealias VStack<Content: View> = ContainerView<Content, ColumnKind>
/// A row (`HStack`).
public typealias HStack<Content: View> = ContainerView<Content, RowKind>
/// Layers (`ZStack`).
public typealias ZStack<Content: View> = ContainerView<Content, LayersKind>
/// A lazy column (`LazyVStack`).
public typealias LazyVStack<Content: View> = ContainerView<Content, ColumnKind>
/// A lazy row (`LazyHStack`).
public typealias LazyHStack<Content: View> = ContainerView<Content, RowKind>
/// A form (`Form`): a grouped list.
public typealias Form<Content: View> = ContainerView<Content, GroupedListKind>
/// A list (`List`): a grouped list.
public typealias List<Content: View> = ContainerView<Content, GroupedListKind>
/// A navigation container (`NavigationView`).
public typealias NavigationView<Content: View> = ContainerView<Content, NavigationKind>
/// A navigation stack (`NavigationStack`).
public typealias NavigationStack<Content: View> = ContainerView<Content, NavigationKind>

extension ContainerView where Kind == ColumnKind {
    /// A column of `content`: children placed across by `alignment`, `spacing` apart (8 pt).
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.init(content: content(), layout: .stack(.vertical, spacing: spacing, Alignment(horizontal: alignment, vertical: .center)))
    }
}

extension ContainerView where Kind == RowKind {
    /// A row of `content`: children placed across by `alignment`, `spacing` apart (8 pt).
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.init(content: content(), layout: .stack(.horizontal, spacing: spacing, Alignment(horizontal: .center, vertical: alignment)))
    }
}

extension ContainerView where Kind == LayersKind {
    /// Layers of `content`, placed by `alignment`.
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.init(content: content(), layout: .stack(.depth, spacing: 0, alignment))
    }
}

extension ContainerView where Kind == GroupedListKind {
    /// A form or list of `content`: each view a row, in sections.
    public init(@ViewBuilder content: () -> Content) {
        self.init(content: content(), layout: .list)
    }
}

extension ContainerView where Kind == NavigationKind {
    /// A navigation view of `content`, under a bar with the screen's title.
    public init(@ViewBuilder content: () -> Content) {
        self.init(content: content(), layout: .navigation)
    }
}

/// A scrolling view (`ScrollView`): its content at its ideal length along the axis, read by
/// the form as it is.
public struct ScrollView<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let content: Content
    let isHorizontal: Bool
    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {
        self.content = content()
        isHorizontal = axes == .horizontal
    }
    func render(into renderer: inout Renderer) {
        let children = renderer.renderChildren(content, as: "scroll")
        let inner = children.count == 1 ? children[0]
            : StackLayoutView(axis: isHorizontal ? .horizontal : .vertical, spacing: nil, alignment: (0.5, 0.5))
        if children.count != 1 { children.forEach(inner.addSubview) }
        renderer.add(ScrollLayoutView(wrapping: inner, isHorizontal: isHorizontal))
    }
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
        let header = self.header.map { renderer.renderChildren($0, as: "header") } ?? []
        let rows = renderer.renderChildren(content, as: "content")
        let footer = self.footer.map { renderer.renderChildren($0, as: "footer") } ?? []
        renderer.add(SectionLayoutView(header: header, rows: rows, footer: footer))
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
