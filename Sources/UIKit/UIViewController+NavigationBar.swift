import Foundation
import WalletWire

extension UIViewController {
    /// True when the controller's screen has a navigation bar: it is in a navigation stack whose
    /// bar is shown, or it has bar buttons (which only a bar shows). Its content's safe area
    /// then starts under the bar.
    package var showsNavigationBar: Bool {
        if let navigation = navigationController { return !navigation.isNavigationBarHidden }
        return navigationItem.leftBarButtonItem != nil || navigationItem.rightBarButtonItem != nil
    }

    /// The navigation bar as drawn, under the status bar: 44 pt tall on the bar's grey, the
    /// title centred (17 pt semibold), the left bar button 16 pt from the left and the right
    /// one 16 pt from the right (17 pt, the tint; a `.done` one semibold), each named by the
    /// form's action.
    func drawnNavigationBar(actions: [ObjectIdentifier: String], title: String) -> ViewNode? {
        guard showsNavigationBar else { return nil }
        let width = UIScreen.main.bounds.width
        let height = UINavigationController.barHeight
        var children: [ViewNode] = []
        if !title.isEmpty {
            let font = UIFont.systemFont(ofSize: 17, weight: .semibold)
            let size = TextMetrics.size(of: title, font: font)
            var label = ViewNode(kind: .label, frame: ScreenTreeReader.frame(CGRect(x: (width - size.width) / 2, y: (height - size.height) / 2,
                                                                                   width: size.width, height: size.height)))
            label.text = title
            label.font = ScreenTreeReader.font(font)
            children.append(label)
        }
        for (item, isLeft) in [(navigationItem.leftBarButtonItem, true), (navigationItem.rightBarButtonItem, false)] {
            guard let item, let action = actions[ObjectIdentifier(item)] else { continue }
            let font = UIFont.systemFont(ofSize: 17, weight: item.style == .done ? .semibold : .regular)
            let text = item.title ?? item.primaryAction?.title ?? ""
            let imageName = item.image?.symbolName ?? item.primaryAction?.image?.symbolName
            let size = text.isEmpty ? CGSize(width: 24, height: 24) : TextMetrics.size(of: text, font: font)
            let x = isLeft ? 16 : width - 16 - size.width
            var button = ViewNode(kind: .button, frame: ScreenTreeReader.frame(CGRect(x: x, y: (height - size.height) / 2,
                                                                                     width: size.width, height: size.height)))
            if !text.isEmpty { button.text = text }
            if text.isEmpty, let imageName { button.image = ViewNode.Image(symbol: imageName) }
            button.font = ScreenTreeReader.font(font)
            button.textColor = ScreenTreeReader.hex(.systemBlue)
            button.accessibilityLabel = item.accessibilityLabel
            button.action = action
            children.append(button)
        }
        var bar = ViewNode(kind: .view, frame: ScreenTreeReader.frame(CGRect(x: 0, y: UIScreen.safeAreaTop, width: width, height: height)),
                           children: children)
        bar.backgroundColor = ScreenTreeReader.hex(UIColor(red: 249.0 / 255, green: 249.0 / 255, blue: 249.0 / 255, alpha: 0.94))
        return bar
    }
}
