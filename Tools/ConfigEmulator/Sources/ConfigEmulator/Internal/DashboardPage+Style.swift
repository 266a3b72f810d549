extension DashboardPage {
    /// The page's style: light and dark by the system's preference, one column on a phone.
    static let style = #"""
        :root { --bg: #f6f7f9; --panel: #fff; --text: #1b1f24; --muted: #59636e; --line: #d4d9df;
          --accent: #0b62d6; --on-accent: #fff; --danger: #b3261e; --ok: #1a7f37; color-scheme: light dark; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #111418; --panel: #1b2027; --text: #e6e9ed; --muted: #9aa5b1; --line: #333b45;
            --accent: #5aa2ff; --on-accent: #0b1320; --danger: #ff8a80; --ok: #5fd17a; }
        }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--text);
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
        .top { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between;
          gap: .5rem 1rem; padding: .75rem 1rem; border-bottom: 1px solid var(--line); background: var(--panel); }
        h1 { font-size: 1.25rem; margin: 0; }
        h2 { font-size: 1.05rem; margin: 0 0 .6rem; }
        h3 { font-size: 1rem; margin: 0; overflow-wrap: anywhere; }
        .live { margin: 0; color: var(--muted); }
        .live.on::before { content: "● "; color: var(--ok); }
        .live.off::before { content: "● "; color: var(--danger); }
        .status { margin: .5rem 1rem 0; min-height: 1.4em; color: var(--muted); }
        .layout { display: grid; gap: 1rem; padding: 1rem; grid-template-columns: minmax(0, 1fr); }
        .side { display: contents; }
        #connect { order: -1; }
        @media (min-width: 1000px) {
          .layout { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); align-items: start; }
          .side { display: grid; gap: 1rem; grid-template-columns: minmax(0, 1fr); }
          #connect { order: 0; }
        }
        .panel { min-width: 0; background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 1rem; }
        .count { color: var(--muted); font-weight: normal; }
        .facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .2rem .8rem; margin: 0; }
        .facts dt { color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
        .empty { margin-top: .8rem; padding: .6rem .8rem; border: 1px dashed var(--line); border-radius: 8px; }
        pre, textarea, code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .88rem; }
        pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: .4rem 0 0; }
        .config { border-top: 1px solid var(--line); padding: .8rem 0; }
        .config:first-child { border-top: 0; padding-top: 0; }
        .config header { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
        .type { font-size: .8rem; padding: .05rem .45rem; border-radius: 999px; border: 1px solid var(--line);
          color: var(--muted); }
        .config header .remove { margin-left: auto; }
        .value-form { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-start; margin-top: .5rem; }
        .value-form input[type=text], .value-form textarea { flex: 1 1 14rem; min-width: 0; }
        textarea { min-height: 5.5rem; width: 100%; }
        input, select, textarea, button { font: inherit; color: inherit; background: var(--bg);
          border: 1px solid var(--line); border-radius: 6px; padding: .3rem .5rem; }
        button { cursor: pointer; background: var(--accent); color: var(--on-accent); border-color: var(--accent); }
        button.secondary, .remove { background: transparent; color: var(--danger); border-color: var(--line); }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .switch { display: inline-flex; align-items: center; gap: .5rem; }
        .switch input { appearance: none; width: 2.6rem; height: 1.5rem; border-radius: 999px; padding: 0;
          position: relative; background: var(--line); border: 0; cursor: pointer; }
        .switch input::after { content: ""; position: absolute; top: .2rem; left: .2rem; width: 1.1rem;
          height: 1.1rem; border-radius: 50%; background: #fff; transition: left .12s; }
        .switch input:checked { background: var(--ok); }
        .switch input:checked::after { left: 1.3rem; }
        .error { color: var(--danger); margin: .3rem 0 0; flex-basis: 100%; }
        .error:empty { display: none; }
        .rules { margin: .5rem 0 0; padding-left: 1.1rem; }
        .rules li { margin: .2rem 0; overflow-wrap: anywhere; }
        .rules li button { margin-left: .4rem; padding: 0 .4rem; }
        details { margin-top: .5rem; } summary { cursor: pointer; color: var(--accent); }
        form label { display: inline-flex; flex-direction: column; gap: .15rem; margin: .3rem .5rem .3rem 0;
          font-size: .85rem; color: var(--muted); }
        form label input, form label select { color: var(--text); }
        fieldset { border: 1px solid var(--line); border-radius: 8px; margin: .6rem 0 0; }
        .buttons { display: flex; flex-wrap: wrap; gap: .5rem; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; font-size: .9rem; }
        th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { color: var(--muted); font-weight: 600; }
        td code { overflow-wrap: anywhere; }
        .plain { list-style: none; padding: 0; margin: 0 0 .5rem; }
        #telemetry > button { margin-top: .6rem; }
        dialog { border: 1px solid var(--line); border-radius: 10px; background: var(--panel); color: var(--text);
          max-width: min(28rem, 92vw); }
        """#
}
