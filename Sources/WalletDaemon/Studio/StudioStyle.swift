/// The studio page's style: a phone at 390 x 844 points (one CSS pixel a point), iOS-like
/// sheets, lists and buttons, and the panels beside it.
enum StudioStyle {
    static let css = #"""
    * { box-sizing: border-box; }
    body { margin: 0; background: #e9e9ee; color: #1c1c1e;
      font: 14px -apple-system, "SF Pro Text", "Helvetica Neue", "DejaVu Sans", Arial, sans-serif; }
    #studio { display: flex; gap: 24px; padding: 20px; align-items: flex-start; }
    #device-column { flex: none; display: flex; flex-direction: column; align-items: center; gap: 10px; }
    .device-switch { display: flex; background: #d1d1d6; border-radius: 9px; padding: 2px; }
    .device-switch button { border: 0; background: transparent; padding: 6px 16px; border-radius: 7px; font: inherit; cursor: pointer; }
    .device-switch button.selected { background: #fff; box-shadow: 0 1px 3px rgba(0,0,0,.2); }
    .phone { background: #1c1c1e; border-radius: 56px; padding: 14px; box-shadow: 0 10px 30px rgba(0,0,0,.3); }
    .screen { position: relative; width: 390px; height: 844px; overflow: hidden; border-radius: 44px; background: #f2f2f7; }
    .status-line { margin: 0; color: #6e6e73; font-size: 12px; max-width: 420px; text-align: center; min-height: 1em; }
    .page { position: absolute; inset: 0; padding: 54px 16px 16px; overflow-y: auto; }
    .page h1 { font-size: 34px; font-weight: 700; margin: 8px 4px 16px; }
    .page h3 { font-size: 13px; font-weight: 400; text-transform: uppercase; color: #6e6e73; margin: 20px 16px 6px; }
    .toolbar { position: absolute; top: 54px; right: 16px; display: flex; gap: 12px; }
    .round { width: 34px; height: 34px; border-radius: 17px; border: 0; background: #e3e3e8; color: #007aff; font-size: 24px;
      line-height: 34px; cursor: pointer; padding: 0; }
    .pass { height: 140px; border-radius: 12px; margin-bottom: -70px; padding: 14px; color: #fff; position: relative;
      background: linear-gradient(135deg, #34495e, #0b1c2c); box-shadow: 0 -2px 6px rgba(0,0,0,.2); }
    .pass:last-child { margin-bottom: 0; }
    .pass .issuer { font-weight: 600; } .pass .number { position: absolute; bottom: 12px; right: 14px; letter-spacing: 1px; }
    .empty { color: #6e6e73; text-align: center; margin-top: 120px; }
    .group { background: #fff; border-radius: 10px; overflow: hidden; }
    .row { display: flex; align-items: center; gap: 10px; padding: 11px 16px; border-bottom: 1px solid #e5e5ea;
      width: 100%; background: #fff; border-left: 0; border-right: 0; border-top: 0; text-align: left; font: inherit; }
    .row:last-child { border-bottom: 0; }
    button.row { cursor: pointer; } button.row:active { background: #d1d1d6; }
    .row .main { flex: 1; } .row .title { font-size: 17px; } .row .detail { font-size: 13px; color: #6e6e73; }
    .late { color: #ff3b30 !important; } .ok { color: #34c759; }
    .sheet-backdrop { position: absolute; inset: 0; background: rgba(0,0,0,.35); display: flex; align-items: center; justify-content: center; }
    .alert { width: 270px; background: rgba(242,242,247,.97); border-radius: 14px; text-align: center; overflow: hidden; }
    .alert .body { padding: 19px 16px 14px; }
    .alert .alert-title { font-weight: 600; font-size: 17px; } .alert .alert-message { font-size: 13px; margin-top: 4px; }
    .alert input { display: block; width: 100%; margin-top: 10px; padding: 7px 6px; font: inherit; font-size: 13px;
      border: 1px solid #c7c7cc; border-radius: 5px; background: #fff; }
    .alert .actions button { display: block; width: 100%; border: 0; border-top: 1px solid #c7c7cc; background: transparent;
      color: #007aff; font: inherit; font-size: 17px; padding: 11px; cursor: pointer; }
    .alert .actions button.preferred { font-weight: 600; }
    .faceid { font-size: 56px; color: #007aff; }
    .card-art { height: 150px; border-radius: 10px; background: linear-gradient(135deg, #5e5ce6, #1e1b4b); color: #fff;
      padding: 12px; font-weight: 600; margin: 8px 0; }
    .card-image { display: block; width: 100%; aspect-ratio: 1536 / 969; object-fit: cover; border-radius: 10px; margin: 4px 0 8px; }
    .card-title { font-weight: 600; }
    .outcome { background: #fff; border-radius: 10px; padding: 12px; margin-bottom: 12px; }
    .outcome ul { margin: 6px 0 0; padding-left: 18px; font-size: 13px; }
    .primary { display: block; width: 100%; margin-top: 16px; padding: 14px; border: 0; border-radius: 12px; background: #007aff;
      color: #fff; font: inherit; font-size: 17px; font-weight: 600; cursor: pointer; }
    .drawn { position: absolute; inset: 0; background: #fff; }
    .drawn > * , .drawn div, .drawn button, .drawn input, .drawn img, .drawn span { position: absolute; margin: 0; }
    .drawn .v-label { white-space: pre-wrap; overflow: hidden; display: flex; align-items: center; }
    .drawn button { border: 0; background: transparent; color: #007aff; font: inherit; cursor: pointer; padding: 0; }
    .drawn input { border: 1px solid #c7c7cc; border-radius: 6px; padding: 0 8px; font: inherit; background: #fff; }
    #conform-targets { list-style: none; padding: 0; margin: 0 0 8px; } #conform-targets li { margin: 4px 0; }
    #conform-targets button { border: 0; border-radius: 6px; background: #007aff; color: #fff; padding: 2px 10px; cursor: pointer; }
    #conform-targets button:disabled { background: #c7c7cc; cursor: default; }
    .conform-log { font: 11px ui-monospace, monospace; max-height: 120px; overflow: auto; white-space: pre-wrap; color: #3c3c43; }
    .checks { padding-left: 18px; margin: 4px 0; } .checks [data-status=failed] b { color: #ff3b30; } .checks [data-status=passed] b { color: #34c759; }
    .checks .evidence { font-size: 12px; color: #6c6c70; }
    .drawn .keyboard-keys { left: 0; right: 0; bottom: 0; height: 52px; background: #d1d4d9; display: flex;
      justify-content: flex-end; align-items: center; gap: 6px; padding: 0 6px; }
    .drawn .keyboard-key { position: static; background: #007aff; color: #fff; border-radius: 6px; height: 42px;
      padding: 0 18px; font-weight: 600; }
    .spinner { margin: 200px auto 12px; width: 32px; height: 32px; border: 3px solid #c7c7cc; border-top-color: #007aff;
      border-radius: 50%; animation: spin 1s linear infinite; } @keyframes spin { to { transform: rotate(360deg); } }
    #panels { flex: 1; display: grid; gap: 16px; min-width: 420px; }
    #panels section { background: #fff; border-radius: 10px; padding: 12px 14px; }
    #panels h2 { font-size: 15px; margin: 0 0 8px; } #panels h2 small { font-weight: 400; color: #6e6e73; }
    #processes { width: 100%; border-collapse: collapse; font-size: 12px; }
    #processes th { text-align: left; color: #6e6e73; font-weight: 400; } #processes td { padding: 3px 6px 3px 0; }
    .bar { width: 120px; height: 8px; background: #e5e5ea; border-radius: 4px; overflow: hidden; display: inline-block; vertical-align: middle; }
    .bar > span { display: block; height: 100%; background: #34c759; } .bar > span.high { background: #ff9500; }
    .feed { list-style: none; margin: 0; padding: 0; max-height: 260px; overflow-y: auto; font: 12px ui-monospace, "DejaVu Sans Mono", monospace; }
    .feed li { padding: 2px 0; border-bottom: 1px solid #f2f2f7; white-space: pre-wrap; word-break: break-all; }
    .feed .meter { display: inline-block; width: 60px; height: 6px; background: #e5e5ea; margin-right: 6px; vertical-align: middle; }
    .feed .meter > span { display: block; height: 100%; background: #007aff; } .feed .meter > span.late { background: #ff3b30; }
    """#
}
