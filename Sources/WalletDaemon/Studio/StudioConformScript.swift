/// The studio page's script, part three: the conformance panel. Each installed extension has a
/// "Run" button that asks the daemon's `extension.conform` for it; its `conform.report` lines
/// show as they come, then each check with its status and evidence. Every string goes in as
/// text (`Studio.el`).
enum StudioConformScript {
    static let javascript = #"""
    const Conformance = (() => {
      const { el, rpc } = Studio;
      let running = false;

      /// A row with a Run button for each extension of each installed app.
      function list(apps) {
        const rows = [];
        for (const app of apps) {
          for (const extension of app.extensions) {
            const button = el("button", { "data-conform": extension.bundleIdentifier, text: "Run" });
            button.addEventListener("click", () => run(extension, button));
            rows.push(el("li", {}, button, " " + extension.bundleIdentifier + " ", el("small", { text: extension.role })));
          }
        }
        document.getElementById("conform-targets").replaceChildren(...rows);
      }

      /// A line of what `conform` prints, as the daemon sends it during a run.
      function line(text) {
        const log = document.getElementById("conform-log");
        if (text) log.append(el("div", { text }));
        log.scrollTop = log.scrollHeight;
      }

      async function run(extension, button) {
        if (running) return;
        running = true;
        for (const other of document.querySelectorAll("[data-conform]")) other.disabled = true;
        document.getElementById("conform-log").replaceChildren();
        const result = document.getElementById("conform-result");
        result.replaceChildren(el("p", { text: "Running the battery on " + extension.bundleIdentifier + "\u2026" }));
        try {
          const answer = await rpc("extension.conform", { appexes: [extension.path] });
          result.replaceChildren(...report(answer));
        } catch (error) {
          result.replaceChildren(el("p", { class: "late", text: String(error.message) }));
        } finally {
          running = false;
          for (const other of document.querySelectorAll("[data-conform]")) other.disabled = false;
        }
      }

      /// The verdict, then each check: passed, failed (with its evidence) or skipped.
      function report(answer) {
        let reports = [];
        try { reports = JSON.parse(answer.json).reports || []; } catch (error) { /* the verdict alone */ }
        const verdict = el("p", { "data-conform-verdict": answer.passed ? "passed" : "failed", class: answer.passed ? "ok" : "late",
          text: answer.passed ? "Every check passed" : "Failed: " + (answer.failed || []).join("; ") });
        const checks = reports.flatMap((extension) => (extension.checks || []).map((check) =>
          el("li", { "data-check": check.id, "data-status": check.status },
            el("b", { text: ({ passed: "\u2713 ", failed: "\u2717 ", skipped: "\u2013 " })[check.status] || "? " }),
            check.title || check.id,
            typeof check.durationMs === "number" ? el("small", { text: " " + check.durationMs.toFixed(1) + " ms" }) : null,
            check.status !== "passed" && check.evidence ? el("div", { class: "evidence", text: check.evidence }) : null)));
        return [verdict, el("ol", { class: "checks" }, checks)];
      }

      return { list, line };
    })();
    """#
}
