import Foundation

/// One tab of a ``ChromiumDevTools`` browser: navigate, run script, wait for an element, tap
/// and type as a user's input does (`Input.dispatchMouseEvent`, `Input.insertText`), and take
/// screenshots.
public struct ChromiumPage: Sendable {
    public let browser: ChromiumDevTools
    /// The flat session id of the tab.
    public let session: String

    /// Loads `url` and waits until the document has loaded.
    public func navigate(_ url: String) async throws {
        let answer = try await browser.send("Page.navigate", ["url": url], session: session)
        if let error = answer["errorText"] as? String { throw ChromiumError(description: "cannot open \(url): \(error)") }
        _ = try await evaluate("""
            new Promise((resolve) => document.readyState === "complete" ? resolve(true)
              : window.addEventListener("load", () => resolve(true), { once: true }))
            """)
    }

    /// Sets the viewport's size in CSS pixels.
    public func resize(width: Int, height: Int) async throws {
        try await browser.send("Emulation.setDeviceMetricsOverride",
                               ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false], session: session)
    }

    /// Runs `expression` in the page (awaiting a promise) and returns its value as JSON gives it.
    /// - Throws: ``ChromiumError`` with the exception's text when it throws.
    @discardableResult
    public func evaluate(_ expression: String, timeout: Duration = .seconds(30)) async throws -> Any? {
        let answer = try await browser.send("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true],
                                            session: session, timeout: timeout)
        if let exception = answer["exceptionDetails"] as? [String: Any] {
            let description = ((exception["exception"] as? [String: Any])?["description"] as? String) ?? "\(exception["text"] ?? exception)"
            throw ChromiumError(description: "the page threw: \(description)")
        }
        return (answer["result"] as? [String: Any])?["value"]
    }

    /// Waits until an element matches `selector` (a MutationObserver in the page: no polling).
    /// - Throws: ``ChromiumError`` naming the selector and what the page shows when none comes in time.
    public func waitFor(_ selector: String, timeout: Duration = .seconds(20)) async throws {
        let milliseconds = Int(timeout.components.seconds) * 1000
        let found = try await evaluate("""
            new Promise((resolve) => {
              const selector = \(Self.quoted(selector));
              if (document.querySelector(selector)) return resolve(true);
              const observer = new MutationObserver(() => {
                if (document.querySelector(selector)) { observer.disconnect(); resolve(true); }
              });
              observer.observe(document, { subtree: true, childList: true, attributes: true });
              setTimeout(() => { observer.disconnect(); resolve(false); }, \(milliseconds));
            })
            """, timeout: timeout + .seconds(5))
        guard found as? Bool == true else {
            let shown = (try? await evaluate("document.getElementById('screen') ? document.getElementById('screen').innerText : document.body.innerText")) ?? nil
            throw ChromiumError(description: "nothing matched \(selector) within \(timeout); the screen shows: \(shown ?? "?")")
        }
    }

    /// Taps the middle of the first element matching `selector`, as a mouse press and release.
    public func tap(_ selector: String) async throws {
        try await waitFor(selector)
        let box = try await evaluate("""
            (() => { const element = document.querySelector(\(Self.quoted(selector)));
              element.scrollIntoView({ block: "center" });
              const r = element.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()
            """)
        guard let point = box as? [Double], point.count == 2 else { throw ChromiumError(description: "no box for \(selector)") }
        for type in ["mousePressed", "mouseReleased"] {
            try await browser.send("Input.dispatchMouseEvent", ["type": type, "x": point[0], "y": point[1], "button": "left", "clickCount": 1],
                                   session: session)
        }
    }

    /// Taps the field matching `selector` and types `text` into it, as a keyboard's input.
    public func type(_ text: String, into selector: String) async throws {
        try await tap(selector)
        try await browser.send("Input.insertText", ["text": text], session: session)
    }

    /// Saves a PNG of the viewport to `file`.
    public func screenshot(to file: URL) async throws {
        let answer = try await browser.send("Page.captureScreenshot", ["format": "png"], session: session)
        guard let base64 = answer["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw ChromiumError(description: "no screenshot data")
        }
        try data.write(to: file)
    }

    /// `text` as a JavaScript string literal.
    public static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text])) ?? Data("[\"\"]".utf8)
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
