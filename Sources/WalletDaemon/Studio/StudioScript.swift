import Foundation
import Wallet
import WalletHostRuntime

/// The studio page's script, part one: the daemon connection (JSON-RPC on `POST /rpc`, the
/// session's event stream), Wallet's screens (the pass list, "+", the issuers, the outcome of
/// each card, Face ID) and the panels beside the phone. Part two, drawing the UI extension's
/// screen, is ``StudioScreenScript``. Every string from the daemon goes in as text (`el`).
enum StudioScript {
    /// Wallet's deadlines (ms) by method and memory limits (bytes) by role, for the panels.
    static var limitsJSON: String {
        var deadlines: [String: Double] = [:]
        var memory: [String: Int] = [:]
        for point in ExtensionPointRegistry.wallet.points {
            for method in point.methods {
                let parts = method.deadline.components
                let milliseconds: Double = Double(parts.seconds) * 1000 + Double(parts.attoseconds) / 1e15
                deadlines[method.name] = milliseconds
            }
            memory[point.role.rawValue] = point.memoryLimitBytes
        }
        let data = (try? JSONSerialization.data(withJSONObject: ["deadlines": deadlines, "memory": memory], options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static var javascript: String { "\"use strict\";\nconst LIMITS = \(limitsJSON);\n" + body }

    static let body = #"""
    const Studio = (() => {
      const token = new URLSearchParams(location.search).get("token") || "";
      const screen = document.getElementById("screen");
      const state = { session: null, nextId: 1, device: "iphone", roles: {}, art: {}, screenTurn: 0 };

      /// An element with attributes and children; strings become text nodes, never markup.
      function el(tag, attributes, ...children) {
        const node = document.createElement(tag);
        for (const [name, value] of Object.entries(attributes || {})) {
          if (value === undefined || value === null || value === false) continue;
          if (name === "onclick") node.addEventListener("click", value);
          else if (name === "text") node.textContent = String(value);
          else if (name === "style") Object.assign(node.style, value);
          else node.setAttribute(name, value === true ? "" : String(value));
        }
        for (const child of children.flat()) {
          if (child === null || child === undefined || child === false) continue;
          node.append(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
        }
        return node;
      }

      async function post(message) {
        const headers = { "Content-Type": "application/json", "X-Wallet-Token": token };
        if (state.session !== null) headers["X-Wallet-Session"] = String(state.session);
        const response = await fetch("/rpc", { method: "POST", headers, body: JSON.stringify(message) });
        if (response.status === 204) return null;
        const text = await response.text();
        if (!response.ok) throw new Error(JSON.parse(text).error || text);
        return JSON.parse(text);
      }

      /// One method of the daemon's client API, as the socket has it.
      async function rpc(method, params) {
        const answer = await post({ jsonrpc: "2.0", id: state.nextId++, method, params: params || {} });
        if (answer.error) throw new Error(answer.error.message);
        return answer.result;
      }

      function connect() {
        return new Promise((resolve) => {
          const events = new EventSource("/events?token=" + encodeURIComponent(token));
          events.addEventListener("session", (event) => {
            const reconnected = state.session !== null;
            state.session = JSON.parse(event.data).session;
            // The browser reopens a closed stream by itself: the new session subscribes again.
            if (reconnected) rpc("events.subscribe", {}).then(() => setStatus("reconnected to the daemon"), () => {});
            resolve();
          });
          events.onmessage = (event) => received(JSON.parse(event.data));
          events.onerror = () => setStatus("the daemon's event stream closed; reload the page when it runs again");
        });
      }

      /// A message the daemon sent this page: a notification, or a request the user answers.
      function received(message) {
        if (message.method === "events.event") return Panels.event(message.params);
        if (message.method === "studio.output") return Panels.output(message.params);
        if (message.method === "conform.report") return Conformance.line(message.params.text);
        if (message.method === "wallet.transcript") return setStatus(message.params.line);
        if (message.method === "studio.entries") { for (const entry of message.params.entries) state.art[entry.identifier] = entry; return; }
        if (message.id !== undefined && message.method === "ui.prompt") {
          window.__shownAt = performance.now();
          return Screen.prompt(message.params, (result) => answer(message.id, result));
        }
        if (message.id !== undefined && message.method === "ui.biometric") return faceID(message.params, (result) => answer(message.id, result));
      }

      function answer(id, result) {
        showBusy("Adding cards\u2026");
        post({ jsonrpc: "2.0", id, result }).catch((error) => setStatus(String(error.message)));
      }

      function setStatus(text) { document.getElementById("status-line").textContent = text; }
      function show(...nodes) { screen.replaceChildren(...nodes); }
      function showBusy(text) { show(el("div", { class: "page", "data-screen": "busy" }, el("div", { class: "spinner" }), el("p", { class: "empty", text }))); }

      /// The card's art as the pass's background, when this page saw it offered.
      function passArt(pass) {
        const entry = Object.values(state.art).find((entry) => entry.addRequestConfiguration
          && entry.addRequestConfiguration.primaryAccountIdentifier === pass.primaryAccountIdentifier);
        if (!entry || !/^[A-Za-z0-9+/=]+$/.test(entry.art.png || "")) return undefined;
        return { backgroundImage: "url(data:image/png;base64," + entry.art.png + ")", backgroundSize: "cover" };
      }

      // The last screen asked for wins: a screen whose data comes back after a newer one was
      // asked for (home after a device switch, then "+" tapped at once) is not drawn.
      async function home() {
        const turn = ++state.screenTurn;
        const passes = await rpc("passes.list", { device: state.device });
        if (turn !== state.screenTurn) return;
        const list = passes.length === 0 ? [el("p", { class: "empty", text: "No cards yet. Tap + to add one." })]
          : passes.map((pass) => el("div", { class: "pass", "data-pass": pass.primaryAccountIdentifier, style: passArt(pass) },
              el("div", { class: "issuer", text: pass.issuer }),
              el("div", { class: "detail", text: pass.primaryAccountIdentifier }),
              el("div", { class: "number", text: "\u2022\u2022\u2022\u2022 " + pass.primaryAccountNumberSuffix })));
        show(el("div", { class: "page", "data-screen": "wallet" },
          el("div", { class: "toolbar" }, el("button", { class: "round", id: "add-card", "data-action": "add", "aria-label": "Add card", onclick: chooseIssuer, text: "+" })),
          el("h1", { text: state.device === "watch" ? "Wallet on Watch" : "Wallet" }), ...list));
      }

      async function chooseIssuer() {
        const turn = ++state.screenTurn;
        showBusy("Looking for apps\u2026");
        const found = await rpc("wallet.discover", { device: state.device });
        if (turn !== state.screenTurn) return;
        const listed = found.issuers.filter((issuer) => issuer.listed);
        const absent = found.issuers.filter((issuer) => !issuer.listed);
        const timing = (issuer) => issuer.milliseconds === undefined ? "" : issuer.milliseconds.toFixed(1) + " ms of 100 ms";
        const where = state.device === "watch" ? "From Apps on Your Watch" : "From Apps on Your iPhone";
        show(el("div", { class: "page", "data-screen": "issuers" },
          el("div", { class: "toolbar" }, el("button", { class: "round", "data-action": "cancel", "aria-label": "Cancel", onclick: home, text: "\u00d7" })),
          el("h1", { text: "Add to Wallet" }),
          el("h3", { text: where }),
          el("div", { class: "group" }, listed.length === 0 ? el("div", { class: "row", text: "No app offers cards." }) : listed.map((issuer) =>
            el("button", { class: "row", "data-issuer": issuer.name, onclick: () => addCard(issuer.name) },
              el("div", { class: "main" }, el("div", { class: "title", text: issuer.name }),
                el("div", { class: "detail" + (issuer.milliseconds > 100 ? " late" : ""), text: timing(issuer) })),
              el("span", { class: "detail", text: "\u203a" })))),
          absent.length === 0 ? null : el("h3", { text: "Not listed" }),
          absent.length === 0 ? null : el("div", { class: "group" }, absent.map((issuer) =>
            el("div", { class: "row", "data-absent": issuer.name }, el("div", { class: "main" },
              el("div", { class: "title", text: issuer.name }),
              el("div", { class: "detail", text: [issuer.reason, timing(issuer)].filter(Boolean).join(" \u00b7 ") })))))));
        setStatus("discovery took " + found.milliseconds.toFixed(1) + " ms");
      }

      async function addCard(issuer) {
        showBusy("Asking " + issuer + "\u2026");
        try {
          const report = await rpc("wallet.addCard", { device: state.device, issuer, userAgent: true });
          outcome(report);
        } catch (error) {
          show(el("div", { class: "page", "data-screen": "failed" }, el("h1", { text: "Could not add" }),
            el("p", { text: String(error.message) }), el("button", { class: "primary", "data-action": "done", onclick: home, text: "Done" })));
        }
      }

      /// The flow's outcome, card by card.
      function outcome(report) {
        const cards = report.cards.map((card) => {
          const verification = card.verification;
          const facts = [];
          if (verification) facts.push(verification.summary, ...(verification.problems || []));
          if (card.error) facts.push(card.error);
          const entry = state.art[card.identifier];
          const suffix = entry && entry.addRequestConfiguration && entry.addRequestConfiguration.primaryAccountSuffix;
          return el("div", { class: "outcome", "data-card": card.identifier },
            entry && entry.art && /^[A-Za-z0-9+/=]+$/.test(entry.art.png || "")
              ? el("img", { class: "card-image", alt: card.title, src: "data:image/png;base64," + entry.art.png }) : null,
            el("div", { class: entry ? "card-title" : "card-art", "data-card-title": "", text: card.title + (suffix ? " \u2022\u2022\u2022\u2022 " + suffix : "") }),
            el("div", { class: card.added ? "ok" : "late", text: card.added ? (state.device === "watch" ? "Added to Apple Watch" : "Added to Wallet") : "Not added" }),
            el("ul", {}, facts.map((fact) => el("li", { text: fact }))));
        });
        const findings = (report.findings || []).map((finding) => el("li", { text: finding }));
        show(el("div", { class: "page", "data-screen": "outcome" },
          el("h1", { text: report.cards.length ? "Cards" : "No cards" }),
          report.failure ? el("p", { class: "late", "data-failure": "", text: report.failure }) : null,
          ...cards, findings.length ? el("ul", {}, findings) : null,
          el("button", { class: "primary", "data-action": "done", onclick: home, text: "Done" })));
      }

      function faceID(params, reply) {
        window.__shownAt = performance.now();
        const choose = (success) => () => reply({ success });
        show(el("div", { class: "sheet-backdrop", "data-screen": "faceid" }, el("div", { class: "alert" },
          el("div", { class: "body" }, el("div", { class: "faceid", text: "\u25ce" }), el("div", { class: "alert-title", text: "Face ID" }),
            el("div", { class: "alert-message", text: params.reason })),
          el("div", { class: "actions" },
            el("button", { "data-action": "Match", class: "preferred", onclick: choose(true), text: "Match" }),
            el("button", { "data-action": "No match", onclick: choose(false), text: "No match" })))));
        window.__drawnAt = performance.now();
      }

      async function chooseDevice(kind) {
        if (kind === "watch") await rpc("device.set", { watchPaired: true });
        state.device = kind;
        for (const button of document.querySelectorAll("[data-device]")) button.classList.toggle("selected", button.dataset.device === kind);
        await home();
      }

      async function start() {
        window.__startAt = performance.now();
        await connect();
        window.__connectedAt = performance.now();
        await rpc("events.subscribe", {});
        for (const button of document.querySelectorAll("[data-device]")) button.addEventListener("click", () => chooseDevice(button.dataset.device));
        try {
          const apps = await rpc("apps.list", {});
          for (const app of apps.apps) for (const extension of app.extensions) state.roles[extension.bundleIdentifier] = extension.role;
          Conformance.list(apps.apps);
        } catch (error) { setStatus(String(error.message)); }
        Panels.start();
        await home();
        window.__readyAt = performance.now();
        document.body.dataset.ready = "true";
      }

      return { el, rpc, start, home, show, setStatus, state, outcome };
    })();
    """#
}
