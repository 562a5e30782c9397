/// The studio page: one HTML document with its style and script inline, shipped in the binary
/// (no CDN, no download: it works offline). The script builds every element itself and puts
/// every string that comes from an extension or the daemon in with `textContent` or an
/// attribute, never as HTML; the Content-Security-Policy ``StudioServer`` sends allows only the
/// script carrying `nonce`, so markup that did get in could not run anyway.
enum StudioPage {
    /// The page, its script marked with `nonce`.
    static func html(nonce: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>wallet-host studio</title>
        <style>\(StudioStyle.css)</style>
        </head>
        <body>
        <main id="studio">
          <div id="device-column">
            <div class="device-switch" role="tablist">
              <button id="device-iphone" data-device="iphone" class="selected">iPhone</button>
              <button id="device-watch" data-device="watch">Paired Watch</button>
            </div>
            <div id="phone" class="phone"><div id="screen" class="screen"></div></div>
            <p id="status-line" class="status-line"></p>
          </div>
          <div id="panels">
            <section><h2>Extension processes</h2><table id="processes"><thead><tr><th>extension</th><th>pid</th>
              <th>footprint</th><th>CPU</th><th>calls</th></tr></thead><tbody></tbody></table></section>
            <section><h2>Conformance <small>each extension against Wallet's rules</small></h2><ol id="conform-targets"></ol>
              <div id="conform-log" class="conform-log"></div><div id="conform-result"></div></section>
            <section><h2>Events <small>each call against its deadline</small></h2><ol id="events" class="feed"></ol></section>
            <section><h2>stderr and os_log <small>newest first</small></h2><ol id="output" class="feed"></ol></section>
          </div>
        </main>
        <script nonce="\(nonce)">\(StudioScript.javascript)\(StudioScreenScript.javascript)\(StudioConformScript.javascript)</script>
        </body>
        </html>
        """
    }
}
