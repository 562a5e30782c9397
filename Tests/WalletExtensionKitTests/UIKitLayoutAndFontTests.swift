import Foundation
import Testing
@_spi(WalletHost) @testable import UIKit

/// A card view that lays out its subviews in code, as real screens do.
private final class CardView: UIView {
    let badge = UIView()
    var layoutCount = 0

    override init(frame: CGRect) {
        super.init(frame: frame)
        addSubview(badge)
    }

    required init?(coder: NSCoder) { nil }

    override func layoutSubviews() {
        super.layoutSubviews()
        layoutCount += 1
        badge.frame = CGRect(x: bounds.width - 44, y: 0, width: 44, height: 44)
    }
}

/// A controller that sizes things in `viewDidLayoutSubviews`, as real screens do.
private final class CardController: UIViewController {
    let card = CardView()
    var events: [String] = []
    var boundsAtLayout = CGRect.zero

    override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(card)
    }
    override func viewWillAppear(_ animated: Bool) { events.append("willAppear") }
    override func viewWillLayoutSubviews() {
        events.append("willLayout")
        card.frame = CGRect(x: 0, y: 0, width: view.bounds.width, height: 200)
    }
    override func viewDidLayoutSubviews() {
        events.append("didLayout")
        boundsAtLayout = view.bounds
        card.layer.cornerRadius = card.bounds.height / 10
    }
    override func viewDidAppear(_ animated: Bool) { events.append("didAppear") }
}

@MainActor
@Suite("UIKit layout pass, symbols, fonts")
struct UIKitLayoutAndFontTests {
    @Test("the layout pass runs between viewWillAppear and viewDidAppear, at the screen's size, parents first")
    func layoutPassBeforeTheScreenIsShown() {
        let controller = CardController()
        controller.beginAppearance()
        #expect(controller.events == ["willAppear", "willLayout", "didLayout", "didAppear"])
        #expect(controller.boundsAtLayout == UIScreen.main.bounds)
        #expect(controller.card.badge.frame == CGRect(x: UIScreen.main.bounds.width - 44, y: 0, width: 44, height: 44))
        #expect(controller.card.layer.cornerRadius == 20)
        #expect(controller.card.layoutCount == 1)
    }

    @Test("setNeedsLayout then layoutIfNeeded lays out again; layoutIfNeeded alone does not")
    func setNeedsLayoutLaysOutAgain() {
        let card = CardView(frame: CGRect(x: 0, y: 0, width: 100, height: 50))
        card.layoutIfNeeded()
        card.layoutIfNeeded()
        #expect(card.layoutCount == 1)
        card.frame.size.width = 200
        card.setNeedsLayout()
        card.layoutIfNeeded()
        #expect(card.layoutCount == 2)
        #expect(card.badge.frame.minX == 156)
    }

    @Test("UIImage.SymbolConfiguration and withRenderingMode are kept with the image")
    func symbolConfigurationAndRenderingMode() throws {
        let configuration = UIImage.SymbolConfiguration(pointSize: 24, weight: .semibold)
        let image = try #require(UIImage(systemName: "creditcard", withConfiguration: configuration))
        #expect(image.symbolConfiguration?.pointSize == 24)
        #expect(image.symbolConfiguration?.weight == .semibold)
        let merged = configuration.applying(UIImage.SymbolConfiguration(scale: .large))
        #expect(merged.pointSize == 24 && merged.scale == .large)
        let template = try #require(UIImage(systemName: "xmark")).withRenderingMode(.alwaysTemplate)
        #expect(template.renderingMode == .alwaysTemplate)
        #expect(try #require(UIImage(systemName: "xmark")).renderingMode == .automatic)
        let button = UIButton(type: .system)
        button.setImage(template, for: .normal)
    }

    @Test("UIFontMetrics scales as at the default text size; UIFont.lineHeight is SF's")
    func fontMetricsAndLineHeight() {
        let font = UIFont.systemFont(ofSize: 17, weight: .medium)
        #expect(abs(font.lineHeight - 20.281) < 0.01)
        #expect(font.ascender > 0 && font.descender < 0)
        let scaled = UIFontMetrics(forTextStyle: .headline).scaledFont(for: font)
        #expect(scaled.pointSize == 17)
        #expect(UIFontMetrics.default.scaledValue(for: 44) == 44)
        #expect(UIFontMetrics.default.scaledFont(for: .systemFont(ofSize: 40), maximumPointSize: 30).pointSize == 30)
    }
}

#Preview("Card") {
    CardController()
}

#Preview(traits: .portrait) {
    CardView(frame: .zero)
}
