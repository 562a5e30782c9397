/// One self-contained HTML page (inline CSS and SVG, nothing fetched) for the `--html` reports
/// of `stress`, `add-card` and `conform`: a title, a line of facts, and sections of charts,
/// tables and free HTML.
public struct HTMLPage: Sendable {
    public var title: String
    public var subtitle: String
    /// The run's verdict, shown first in the header, which is green only when it passed and red
    /// when it failed (nil: a neutral header).
    public var verdict: Verdict?
    private var body = ""

    /// Whether the run passed, and the sentence that says why.
    public struct Verdict: Sendable {
        public var passed: Bool
        public var sentence: String

        /// A verdict: `passed` colours the header, `sentence` is written in it after PASS or FAIL.
        public init(passed: Bool, sentence: String) {
            self.passed = passed
            self.sentence = sentence
        }
    }

    public init(title: String, subtitle: String) {
        self.title = title
        self.subtitle = subtitle
    }

    /// Adds a section with a heading and HTML content (already escaped).
    public mutating func section(_ heading: String, _ html: String) {
        body += "<section>\n<h2>\(Self.escape(heading))</h2>\n\(html)\n</section>\n"
    }

    /// A table from rows of plain text (escaped here); the first row is the header.
    /// - Parameter rowClasses: A CSS class per body row (`fail`, `pass`), or nil.
    public static func table(_ rows: [[String]], rowClasses: [String?] = []) -> String {
        guard let header = rows.first else { return "" }
        var html = "<table>\n<thead><tr>" + header.map { "<th>\(escape($0))</th>" }.joined() + "</tr></thead>\n<tbody>\n"
        for (index, row) in rows.dropFirst().enumerated() {
            let rowClass = index < rowClasses.count ? rowClasses[index].map { " class=\"\($0)\"" } ?? "" : ""
            html += "<tr\(rowClass)>" + row.map { "<td>\(escape($0))</td>" }.joined() + "</tr>\n"
        }
        return html + "</tbody>\n</table>"
    }

    /// Text made safe for HTML.
    public static func escape(_ text: String) -> String {
        JUnitXML.escape(text)
    }

    /// The whole document.
    public func render() -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(Self.escape(title))</title>
        <style>
        \(Self.style)
        </style>
        </head>
        <body>
        \(header)
        <main>
        \(body)</main>
        </body>
        </html>

        """
    }

    /// The header: the verdict (when there is one) above the title, coloured by it.
    private var header: String {
        guard let verdict else {
            return "<header><h1>\(Self.escape(title))</h1><p class=\"subtitle\">\(Self.escape(subtitle))</p></header>"
        }
        let kind = verdict.passed ? "pass" : "fail"
        return "<header class=\"\(kind)\"><p class=\"verdict\">\(verdict.passed ? "PASS" : "FAIL") · \(Self.escape(verdict.sentence))</p>"
            + "<h1>\(Self.escape(title))</h1><p class=\"subtitle\">\(Self.escape(subtitle))</p></header>"
    }

    private static let style = """
        body { font: 14px/1.45 -apple-system, "Helvetica Neue", Arial, sans-serif; margin: 0; color: #1d1d1f; background: #f5f5f7; }
        header { background: #1d1d1f; color: #f5f5f7; padding: 18px 28px; }
        header.pass { background: #1a7f37; } header.fail { background: #c9342b; }
        .verdict { margin: 0 0 6px; font-size: 17px; font-weight: 700; } header .subtitle { color: #f2f2f7; }
        svg .legend-label { font-size: 11px; fill: #3a3a3c; }
        h1 { margin: 0; font-size: 22px; } .subtitle { margin: 4px 0 0; color: #c7c7cc; }
        main { padding: 12px 28px 40px; max-width: 1100px; }
        section { background: #fff; border-radius: 12px; padding: 14px 18px; margin: 16px 0; box-shadow: 0 1px 3px rgba(0,0,0,.08); }
        h2 { font-size: 16px; margin: 0 0 10px; }
        table { border-collapse: collapse; width: 100%; font-size: 13px; }
        th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e5e5ea; vertical-align: top; }
        th { color: #6e6e73; font-weight: 600; } tr.fail td { background: #fff1f0; } tr.pass td:first-child { color: #1a7f37; }
        td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
        .facts { display: flex; flex-wrap: wrap; gap: 10px; } .fact { background: #f5f5f7; border-radius: 8px; padding: 6px 10px; }
        .fact b { display: block; font-size: 18px; } .bad b { color: #c9342b; } .good b { color: #1a7f37; }
        svg.chart { width: 100%; height: auto; max-width: 760px; display: block; margin: 6px 0 14px; }
        svg .title { font-size: 13px; font-weight: 600; fill: #1d1d1f; } svg .tick { font-size: 10px; fill: #6e6e73; }
        svg .axis { font-size: 11px; fill: #3a3a3c; } svg .plot { fill: #fbfbfd; stroke: #d1d1d6; }
        svg .guide { stroke-width: 1.5; stroke-dasharray: 5 3; } svg .guide-label { font-size: 10px; }
        .screen { display: inline-block; vertical-align: top; width: 300px; margin: 0 14px 14px 0; border: 1px solid #d1d1d6; border-radius: 22px; padding: 14px; background: #fff; }
        .screen h3 { margin: 0 0 8px; font-size: 14px; } .card { aspect-ratio: 1536 / 969; width: 100%; border-radius: 10px; object-fit: cover; background: #d1d1d6; }
        .screen figure { margin: 0 0 12px; } .screen figcaption { margin-top: 4px; }
        .drawn-screen { position: relative; overflow: hidden; border: 1px solid #d1d1d6; border-radius: 16px; background: #fff; margin-bottom: 8px; }
        .drawn-root { position: absolute; left: 0; top: 0; transform-origin: 0 0; font: 17px -apple-system, system-ui, sans-serif; }
        .drawn-root div { position: absolute; box-sizing: border-box; overflow: hidden; white-space: pre-wrap; }
        .drawn-root [data-kind=button] { display: flex; align-items: center; justify-content: center; color: #007aff; }
        .drawn-root [data-chosen] { outline: 3px solid #ff9500; outline-offset: 2px; overflow: visible; }
        .drawn-root [data-kind=textField] { display: flex; align-items: center; padding: 0 8px; }
        .drawn-root [data-kind=label] { display: flex; align-items: center; }
        .drawn-root [data-kind=toggle] { border-radius: 16px; background: #e9e9eb; } .drawn-root [data-on=true] { background: #34c759; }
        .drawn-root .placeholder { color: #c7c7cc; } .drawn-root img { width: 100%; height: 100%; object-fit: contain; }
        .picked b { color: #0a84ff; } .tag { font-size: 11px; background: #0a84ff; color: #fff; border-radius: 6px; padding: 1px 6px; }
        pre.notes { white-space: pre-wrap; font-size: 12px; margin: 0; }
        .muted { color: #6e6e73; } code { font-size: 12px; }
        """
}
