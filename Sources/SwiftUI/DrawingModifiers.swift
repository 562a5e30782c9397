// The modifiers that change how the screen is drawn and laid out: they reach the drawn screen
// (``ScreenTree``) and leave the form as it was. Environment modifiers set a value for the views
// inside; layout modifiers wrap each view inside in a ``LayoutView``.

extension View {
    /// Renders the content with `change` made to the environment.
    func withEnvironment(_ change: @escaping @MainActor (inout EnvironmentValues) -> Void) -> ModifiedContent<Self, FormModifier> {
        ModifiedContent(content: self) { renderer, render in
            let saved = renderer.environment
            change(&renderer.environment)
            render(&renderer)
            renderer.environment = saved
        }
    }

    /// Renders the content and replaces each view it made with `wrap(view)`.
    func wrappingEach(_ wrap: @escaping @MainActor (UIView, inout Renderer) -> UIView) -> ModifiedContent<Self, FormModifier> {
        let content = self
        return ModifiedContent(content: self) { renderer, _ in
            let views = renderer.renderChildren(content, as: "modified")
            for view in views { renderer.views.append(wrap(view, &renderer)) }
        }
    }

    /// Wraps each view in a ``DecoratedLayoutView`` (or uses the one it is) and changes it.
    func decorated(_ change: @escaping @MainActor (DecoratedLayoutView, inout Renderer) -> Void) -> ModifiedContent<Self, FormModifier> {
        wrappingEach { view, renderer in
            let decorated = view as? DecoratedLayoutView ?? DecoratedLayoutView(wrapping: view)
            change(decorated, &renderer)
            return decorated
        }
    }

    // MARK: Text and colour

    /// The font of the text inside.
    public func font(_ font: Font?) -> ModifiedContent<Self, FormModifier> { withEnvironment { $0.font = font } }
    /// The weight of the text inside.
    public func fontWeight(_ weight: Font.Weight?) -> ModifiedContent<Self, FormModifier> {
        withEnvironment { environment in
            if let weight { environment.font = (environment.font ?? .body).weight(weight) }
        }
    }
    /// The colour of the text and symbols inside.
    public func foregroundColor(_ color: Color?) -> ModifiedContent<Self, FormModifier> { withEnvironment { $0.foregroundColor = color } }
    /// The colour of the text and symbols inside.
    public func foregroundStyle(_ style: Color) -> ModifiedContent<Self, FormModifier> { foregroundColor(style) }
    /// The tint of the controls inside.
    public func tint(_ tint: Color?) -> ModifiedContent<Self, FormModifier> { withEnvironment { $0.tint = tint } }
    /// The tint of the controls inside (the pre-iOS 15 name).
    public func accentColor(_ color: Color?) -> ModifiedContent<Self, FormModifier> { tint(color) }
    /// How the lines of the text inside line up.
    public func multilineTextAlignment(_ alignment: TextAlignment) -> ModifiedContent<Self, FormModifier> {
        withEnvironment { $0.multilineTextAlignment = alignment }
    }
    /// The most lines the text inside takes.
    public func lineLimit(_ number: Int?) -> ModifiedContent<Self, FormModifier> { withEnvironment { $0.lineLimit = number } }
    /// The scale of the symbols inside.
    public func imageScale(_ scale: Image.Scale) -> ModifiedContent<Self, FormModifier> { withEnvironment { $0.imageScale = scale } }
    /// Resizable images inside keep their aspect ratio and fit.
    public func scaledToFit() -> ModifiedContent<Self, FormModifier> { withEnvironment { $0.imageContentMode = .fit } }
    /// Resizable images inside keep their aspect ratio and fill.
    public func scaledToFill() -> ModifiedContent<Self, FormModifier> { withEnvironment { $0.imageContentMode = .fill } }
    /// Resizable images inside keep their aspect ratio.
    public func aspectRatio(_ ratio: CGFloat? = nil, contentMode: ContentMode) -> ModifiedContent<Self, FormModifier> {
        withEnvironment { $0.imageContentMode = contentMode }
    }

    // MARK: Layout

    /// Space around the view: 16 pt, the system's, on each edge unless given.
    public func padding(_ length: CGFloat? = nil) -> ModifiedContent<Self, FormModifier> { padding(.all, length) }

    /// Space on `edges` of the view: `length`, else 16 pt.
    public func padding(_ edges: Edge.Set, _ length: CGFloat? = nil) -> ModifiedContent<Self, FormModifier> {
        let value = length ?? 16
        return padding(EdgeInsets(top: edges.contains(.top) ? value : 0, leading: edges.contains(.leading) ? value : 0,
                                  bottom: edges.contains(.bottom) ? value : 0, trailing: edges.contains(.trailing) ? value : 0))
    }

    /// Space given per edge.
    public func padding(_ insets: EdgeInsets) -> ModifiedContent<Self, FormModifier> {
        wrappingEach { view, _ in PaddingLayoutView(wrapping: view, insets: insets) }
    }

    /// A fixed width, height or both, the content placed by `alignment`.
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> ModifiedContent<Self, FormModifier> {
        wrappingEach { view, _ in
            FrameLayoutView(wrapping: view, width: .init(fixed: width), height: .init(fixed: height), alignment: alignment)
        }
    }

    /// Bounds on the width and height (`.infinity` to take all that is offered).
    public func frame(minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
                      idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center)
        -> ModifiedContent<Self, FormModifier> {
        wrappingEach { view, _ in
            FrameLayoutView(wrapping: view, width: .init(minimum: minWidth, ideal: idealWidth, maximum: maxWidth),
                            height: .init(minimum: minHeight, ideal: idealHeight, maximum: maxHeight), alignment: alignment)
        }
    }

    /// The view at its ideal size on both axes, whatever it is offered (a text on one line).
    public func fixedSize() -> ModifiedContent<Self, FormModifier> { fixedSize(horizontal: true, vertical: true) }

    /// The view at its ideal size on the axes given (`fixedSize(horizontal: false, vertical:
    /// true)`: a text wraps to the width offered and takes all the lines it needs).
    public func fixedSize(horizontal: Bool, vertical: Bool) -> ModifiedContent<Self, FormModifier> {
        wrappingEach { view, _ in FixedSizeLayoutView(wrapping: view, horizontal: horizontal, vertical: vertical) }
    }

    /// The order in which a stack sizes the view: a stack offers its higher-priority children
    /// the space left first (keeping the lower ones' least sizes back); 0 by default.
    public func layoutPriority(_ value: Double) -> ModifiedContent<Self, FormModifier> {
        wrappingEach { view, _ in
            let wrapper = view as? LayoutView ?? WrapperLayoutView(wrapping: view)
            wrapper.layoutPriority = value
            return wrapper
        }
    }

    /// `background` drawn behind the view, at its size.
    public func background<V: View>(_ background: V, alignment: Alignment = .center) -> ModifiedContent<Self, FormModifier> {
        decorated { view, renderer in
            if let color = background as? Color {
                view.backgroundColor = color.uiColor
            } else {
                view.addBackground(renderer.renderChildren(background, as: "background"), alignment: alignment)
            }
        }
    }

    /// `content` drawn behind the view (iOS 15's form).
    public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> ModifiedContent<Self, FormModifier> {
        background(content(), alignment: alignment)
    }

    /// `overlay` drawn in front of the view, at its size (drawn, not read into the form).
    public func overlay<V: View>(_ overlay: V, alignment: Alignment = .center) -> ModifiedContent<Self, FormModifier> {
        decorated { view, renderer in view.addOverlay(renderer.renderChildren(overlay, as: "overlay"), alignment: alignment) }
    }

    /// `content` drawn in front of the view (iOS 15's form).
    public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> ModifiedContent<Self, FormModifier> {
        overlay(content(), alignment: alignment)
    }

    /// Clipped to a rounded rectangle of `radius`.
    public func cornerRadius(_ radius: CGFloat, antialiased: Bool = true) -> ModifiedContent<Self, FormModifier> {
        decorated { view, _ in
            view.layer.cornerRadius = radius
            view.clipsToBounds = true
        }
    }

    /// Clipped to `shape`: a rounded rectangle's corners, a circle's or capsule's round ends.
    public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> ModifiedContent<Self, FormModifier> {
        decorated { view, _ in
            view.clipsToBounds = true
            if let rounded = shape as? RoundedRectangle { view.layer.cornerRadius = rounded.cornerSize.width }
            if shape is Circle || shape is Capsule || shape is Ellipse { view.isRound = true }
        }
    }

    /// A border of `content` inside the view's edges.
    public func border<S: ShapeStyle>(_ content: S, width: CGFloat = 1) -> ModifiedContent<Self, FormModifier> {
        decorated { view, renderer in
            view.layer.borderWidth = width
            view.layer.borderColor = ((content as? Color) ?? renderer.environment.foregroundColor ?? .primary).uiColor.cgColor
        }
    }

    /// Drawn `x`, `y` points away from where it is laid out.
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> ModifiedContent<Self, FormModifier> {
        decorated { view, _ in view.offset = CGSize(width: view.offset.width + x, height: view.offset.height + y) }
    }

    // MARK: Opacity and shadow

    /// The view drawn at `opacity` (0 to 1), its content with it; at 0 it leaves the form too,
    /// as an invisible view takes no taps.
    public func opacity(_ opacity: Double) -> ModifiedContent<Self, FormModifier> {
        decorated { view, _ in view.alpha *= CGFloat(max(0, min(1, opacity))) }
    }

    /// A shadow behind the view: `color`, blurred by `radius`, offset by `x` and `y` points.
    public func shadow(color: Color = Color(red: 0, green: 0, blue: 0, opacity: 0.33), radius: CGFloat, x: CGFloat = 0,
                       y: CGFloat = 0) -> ModifiedContent<Self, FormModifier> {
        decorated { view, _ in
            view.layer.shadowColor = color.uiColor.cgColor
            view.layer.shadowOpacity = 1
            view.layer.shadowRadius = radius
            view.layer.shadowOffset = CGSize(width: x, height: y)
        }
    }
}
