/// The studio page's script, part two: the UI extension's screen, drawn. With a laid-out
/// screen (`ui.prompt`'s `screen`, a ``WalletWire/ScreenTree``) each view is an element at its
/// frame in points; without one the form (title, message, fields, actions) is an iOS alert.
/// Either way a field is `[data-field=NAME]` and a button `[data-action=TITLE]`, so tests and
/// people find them the same way; a tap on an action answers the prompt with every field's
/// value. Then the panels: processes, events, output.
enum StudioScreenScript {
    static let javascript = #"""
    const Screen = (() => {
      const { el } = Studio;
      const weights = { ultraLight: 100, thin: 200, light: 300, regular: 400, medium: 500, semibold: 600, bold: 700, heavy: 800, black: 900 };
      const symbols = { faceid: "\u25ce", "lock.fill": "\u{1F512}", "delete.left": "\u232b", "xmark": "\u00d7", "checkmark": "\u2713",
        "person.fill": "\u263a", "creditcard": "\u25ad", "chevron.right": "\u203a", "info.circle": "\u24d8" };

      /// `#RRGGBB` or `#RRGGBBAA` as CSS; anything else is ignored.
      function color(value) {
        const match = /^#([0-9a-fA-F]{6})([0-9a-fA-F]{2})?$/.exec(value || "");
        if (!match) return undefined;
        const number = parseInt(match[1], 16);
        const alpha = match[2] ? parseInt(match[2], 16) / 255 : 1;
        return "rgba(" + (number >> 16) + "," + ((number >> 8) & 255) + "," + (number & 255) + "," + alpha.toFixed(3) + ")";
      }

      function values(root) {
        const result = {};
        for (const input of root.querySelectorAll("[data-field]")) {
          result[input.dataset.field] = input.type === "checkbox" ? (input.checked ? "true" : "false") : input.value;
        }
        return result;
      }

      /// One view and its children, positioned in its parent.
      function view(node) {
        if (node.hidden) return null;
        const frame = node.frame || { x: 0, y: 0, width: 0, height: 0 };
        let element;
        switch (node.kind) {
          case "label": element = el("div", { class: "v-label", text: node.text || "" }); break;
          case "button": element = el("button", { "data-action": node.action, text: node.image ? "" : (node.text || "") }); break;
          case "textField": element = el("input", { type: node.secure ? "password" : "text", "data-field": node.field,
            placeholder: node.placeholder, autocomplete: "off" }); element.value = node.text || ""; break;
          case "toggle": element = el("input", { type: "checkbox", "data-field": node.field }); element.checked = !!node.isOn; break;
          case "image": element = image(node.image); break;
          default: element = el("div", {});
        }
        if (node.kind === "button" && node.image) element.append(image(node.image, true));
        const style = element.style;
        Object.assign(style, { left: frame.x + "px", top: frame.y + "px", width: frame.width + "px", height: frame.height + "px" });
        if (color(node.backgroundColor)) style.background = color(node.backgroundColor);
        if (color(node.textColor)) style.color = color(node.textColor);
        else if (node.kind === "button" && color(node.tintColor)) style.color = color(node.tintColor);
        if (node.cornerRadius) style.borderRadius = node.cornerRadius + "px";
        decorate(style, node);
        if (node.borderWidth) style.border = node.borderWidth + "px solid " + (color(node.borderColor) || "#000");
        if (node.font) { style.fontSize = node.font.size + "px"; style.fontWeight = weights[node.font.weight] || 400; }
        const align = { left: "flex-start", center: "center", right: "flex-end" }[node.textAlignment];
        if (node.kind === "label" && align) { style.justifyContent = align; style.textAlign = node.textAlignment; }
        if (node.kind === "label" && node.textAlignment === "center") style.textAlign = "center";
        if (node.enabled === false) element.setAttribute("disabled", "");
        if (node.accessibilityLabel) element.setAttribute("aria-label", node.accessibilityLabel);
        if (node.accessibilityIdentifier) element.setAttribute("data-identifier", node.accessibilityIdentifier);
        element.setAttribute("data-kind", node.kind);
        if (node.kind === "scroll") style.overflow = "auto";
        for (const child of node.children || []) {
          const drawn = view(child);
          if (drawn) element.append(drawn);
        }
        return element;
      }

      const finite = (value) => typeof value === "number" && Number.isFinite(value);

      /// Opacity, shadow and gradient, each only when its numbers are numbers.
      function decorate(style, node) {
        if (finite(node.opacity)) style.opacity = Math.max(0, Math.min(1, node.opacity));
        const shadow = node.shadow;
        if (shadow && color(shadow.color) && [shadow.x, shadow.y, shadow.radius].every(finite)) {
          // A layer's shadow radius is about half of CSS's blur length.
          style.boxShadow = shadow.x + "px " + shadow.y + "px " + Math.max(0, shadow.radius * 2) + "px " + color(shadow.color);
        }
        const gradient = node.gradient;
        if (gradient && Array.isArray(gradient.colors) && gradient.start && gradient.end
            && [gradient.start.x, gradient.start.y, gradient.end.x, gradient.end.y].every(finite)) {
          const stops = gradient.colors.map(color).filter(Boolean);
          // From start to end in the unit square (y down): CSS measures from "to top", clockwise.
          const angle = Math.atan2(gradient.end.x - gradient.start.x, gradient.start.y - gradient.end.y) * 180 / Math.PI;
          if (stops.length > 1) style.backgroundImage = "linear-gradient(" + angle.toFixed(1) + "deg, " + stops.join(", ") + ")";
        }
      }

      function image(picture, inside) {
        if (picture && picture.png && /^[A-Za-z0-9+/=]+$/.test(picture.png)) {
          const img = el("img", { alt: "" });
          img.src = "data:image/png;base64," + picture.png;
          if (inside) Object.assign(img.style, { position: "static", width: "100%", height: "100%", objectFit: "contain" });
          return img;
        }
        const name = picture && picture.symbol ? picture.symbol : "";
        return el("span", { class: "symbol", "data-symbol": name, text: symbols[name] || "\u25a1",
          style: inside ? { position: "static" } : { display: "flex", alignItems: "center", justifyContent: "center" } });
      }

      /// The laid-out screen at its size in points.
      function tree(screenTree) {
        const root = el("div", { class: "drawn", "data-screen": "extension", "data-drawn": "tree" });
        Object.assign(root.style, { width: screenTree.size.width + "px", height: screenTree.size.height + "px" });
        const scale = Math.min(390 / screenTree.size.width, 844 / screenTree.size.height, 1);
        if (scale < 1) { root.style.transform = "scale(" + scale + ")"; root.style.transformOrigin = "0 0"; }
        const drawn = view(screenTree.root);
        if (drawn) root.append(drawn);
        return root;
      }

      /// The form as an iOS alert: title, message, a field per field, a button per action.
      function form(params) {
        return el("div", { class: "sheet-backdrop", "data-screen": "extension", "data-drawn": "form" }, el("div", { class: "alert" },
          el("div", { class: "body" },
            el("div", { class: "alert-title", text: params.title || "" }),
            params.message ? el("div", { class: "alert-message", text: params.message }) : null,
            (params.fields || []).map((field) => el("input", { type: field.secure ? "password" : "text", "data-field": field.name,
              placeholder: field.label, "aria-label": field.label, autocomplete: "off" }))),
          el("div", { class: "actions" }, (params.actions || []).map((action, index) =>
            el("button", { "data-action": action, class: index === 0 ? "preferred" : undefined, text: action })))));
      }

      /// The actions the drawn screen has no view for, as keys along its bottom, so that every
      /// action can be tapped. On a screen with no button at all the SDK offers the keyboard's
      /// return key ("Return", "Go", "Done"): Enter in a field presses it.
      function keys(drawn, params) {
        const buttons = Array.from(drawn.querySelectorAll("[data-action]"), (button) => button.dataset.action);
        const missing = (params.actions || []).filter((action) => !buttons.includes(action));
        if (missing.length === 0) return;
        const bar = el("div", { class: "keyboard-keys" }, missing.map((action) =>
          el("button", { "data-action": action, class: "keyboard-key", text: action })));
        drawn.append(bar);
        if (buttons.length > 0) return;
        drawn.addEventListener("keydown", (event) => {
          if (event.key === "Enter" && event.target.matches("input[data-field]")) bar.firstChild.click();
        });
      }

      /// Shows a `ui.prompt` and answers it once, with the tapped action and the fields' values.
      function prompt(params, reply) {
        const drawn = params.screen ? tree(params.screen) : form(params);
        if (params.screen) keys(drawn, params);
        let answered = false;
        drawn.addEventListener("click", (event) => {
          const button = event.target.closest("[data-action]");
          if (!button || answered || button.disabled) return;
          answered = true;
          window.__answeredAt = performance.now();
          reply({ action: button.dataset.action, values: values(drawn) });
        });
        const dismiss = el("button", { class: "round", "data-action": "dismiss-sheet", "aria-label": "Dismiss the sheet", text: "\u2193",
          style: { position: "absolute", top: "12px", left: "12px", zIndex: 10 },
          onclick: () => { if (!answered) { answered = true; reply({ dismissed: true, values: values(drawn) }); } } });
        Studio.show(drawn, dismiss);
        window.__drawnAt = performance.now();
        return drawn;
      }

      return { prompt, tree, form, color };
    })();

    const Panels = (() => {
      const { el, rpc, state } = Studio;
      const short = (identifier) => (identifier || "host").split(".").slice(-1)[0];
      const megabytes = (bytes) => (bytes / 1048576).toFixed(1) + " MB";

      function prepend(list, item) {
        list.prepend(item);
        while (list.children.length > 300) list.lastChild.remove();
      }

      function event(event) {
        if (window.__onEvent) window.__onEvent(event);
        const deadline = event.deadlineMilliseconds || (event.method ? LIMITS.deadlines[event.method] : undefined);
        let meter = null;
        if (event.milliseconds !== undefined && deadline) {
          const late = event.milliseconds > deadline;
          meter = el("span", { class: "meter", title: event.milliseconds.toFixed(1) + " of " + deadline + " ms" },
            el("span", { class: late ? "late" : "", style: { width: Math.min(100, 100 * event.milliseconds / deadline) + "%" } }));
        }
        prepend(document.getElementById("events"), el("li", { "data-kind": event.kind }, meter,
          (event.time || "").slice(11, 19) + " " + short(event.bundleIdentifier) + " " + event.kind + ": " + (event.message || "")));
      }

      function output(line) {
        prepend(document.getElementById("output"), el("li", { "data-stream": line.stream },
          "[" + line.stream + "] " + short(line.bundleIdentifier) + " " + line.pid + ": " + line.line));
      }

      async function refresh() {
        try {
          const listing = await rpc("studio.processes", {});
          const rows = listing.processes.map((process) => {
            const limit = LIMITS.memory[state.roles[process.bundleIdentifier] || process.role || "nonUI"] || LIMITS.memory.nonUI;
            const footprint = process.footprintBytes || 0;
            const share = Math.min(100, 100 * footprint / limit);
            return el("tr", { "data-process": process.bundleIdentifier },
              el("td", { text: short(process.bundleIdentifier), title: process.bundleIdentifier }),
              el("td", { text: process.pid === undefined ? "\u2013" : process.pid }),
              el("td", {}, el("span", { class: "bar" }, el("span", { class: share > 80 ? "high" : "", style: { width: share + "%" } })),
                " " + megabytes(footprint) + " of " + megabytes(limit)),
              el("td", { text: process.cpuPercent === undefined ? "\u2013" : process.cpuPercent.toFixed(1) + "%" }),
              el("td", { text: process.calls }));
          });
          document.querySelector("#processes tbody").replaceChildren(...rows);
        } catch (error) { /* the next refresh tries again */ }
      }

      function start() {
        refresh();
        setInterval(() => { if (!document.hidden) refresh(); }, 1000);
      }

      return { event, output, start };
    })();

    Studio.start().catch((error) => Studio.setStatus(String(error.message)));
    """#
}
