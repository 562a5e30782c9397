@_exported import Combine
@_exported import Foundation
@_exported import UIKit

/// A piece of user interface (`View`): a value whose ``body`` describes what it shows.
///
/// SwiftUI here renders a view into the UIKit views of its ``UIHostingController`` (a label per
/// `Text`, a text field per `TextField`, a button per `Button`, ...), so that the screen is the
/// form the host's user agent shows, as for UIKit screens; a state change renders the next form.
/// Containers and layout modifiers render to ``LayoutView``s, laid out SwiftUI's way for the
/// screen a page draws.
@preconcurrency @MainActor
public protocol View {
    /// The type of the view's content.
    associatedtype Body: View
    /// The view's content.
    @ViewBuilder @MainActor var body: Body { get }
}

/// Views that render themselves (text, controls, stacks, modifiers) rather than a body.
@MainActor
protocol PrimitiveView {
    func render(into renderer: inout Renderer)
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("Never has no body") }
}

extension View where Body == Never {
    /// Views that draw themselves have no body, as in SwiftUI.
    public var body: Never { fatalError("\(Self.self) renders itself and has no body") }
}

/// Nothing (`EmptyView`).
public struct EmptyView: View, PrimitiveView {
    public typealias Body = Never
    public init() {}
    func render(into renderer: inout Renderer) {}
}

/// A type-erased view (`AnyView`).
public struct AnyView: View, PrimitiveView {
    public typealias Body = Never
    let view: any View
    public init<V: View>(_ view: V) { self.view = view }
    public init<V: View>(erasing view: V) { self.view = view }
    func render(into renderer: inout Renderer) { renderer.render(view, as: "any") }
}

/// Several views in a row of a builder (`TupleView`).
public struct TupleView<T>: View, PrimitiveView {
    public typealias Body = Never
    public var value: T
    let children: [any View]

    public init(_ value: T) {
        self.value = value
        children = []
    }

    init<each Child: View>(packing child: repeat each Child) where T == (repeat each Child) {
        value = (repeat each child)
        var children: [any View] = []
        for view in repeat each child { children.append(view) }
        self.children = children
    }

    func render(into renderer: inout Renderer) {
        for (index, child) in children.enumerated() { renderer.render(child, as: "\(index)") }
    }
}

/// One of two views, as `if`/`else` in a builder chooses (`_ConditionalContent`).
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View, PrimitiveView {
    public typealias Body = Never
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    let storage: Storage

    func render(into renderer: inout Renderer) {
        switch storage {
        case .trueContent(let view): renderer.render(view, as: "if")
        case .falseContent(let view): renderer.render(view, as: "else")
        }
    }
}

extension Optional: View where Wrapped: View {
    public typealias Body = Never
}

extension Optional: PrimitiveView where Wrapped: View {
    func render(into renderer: inout Renderer) {
        if let view = self { renderer.render(view, as: "some") }
    }
}

/// Builds views from the statements of a closure (`ViewBuilder`): sequences, `if`, `if`/`else`,
/// `switch`, `if #available`.
@resultBuilder @MainActor
public enum ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView(packing: repeat each content)
    }
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent)
        -> _ConditionalContent<TrueContent, FalseContent> { _ConditionalContent(storage: .trueContent(first)) }
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent)
        -> _ConditionalContent<TrueContent, FalseContent> { _ConditionalContent(storage: .falseContent(second)) }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

/// Views grouped without layout (`Group`).
public struct Group<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let content: Content
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    func render(into renderer: inout Renderer) { renderer.render(content, as: "group") }
}

/// A view per element of a collection (`ForEach`), identified by `id`.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View, PrimitiveView {
    public typealias Body = Never
    public let data: Data
    let id: (Data.Element) -> ID
    public let content: (Data.Element) -> Content

    /// A view per element, identified by the key path `id`.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.id = { $0[keyPath: id] }
        self.content = content
    }

    func render(into renderer: inout Renderer) {
        for element in data { renderer.render(content(element), as: "\(id(element))") }
    }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    /// A view per element, identified by its `id`.
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.init(data, id: \.id, content: content)
    }
}

extension ForEach where Data == Range<Int>, ID == Int {
    /// A view per number of a constant range.
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.init(data, id: \.self, content: content)
    }
}
