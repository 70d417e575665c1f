/**
 * The console's and the reports' style sheet, one string for both (the page adds it at start, a
 * report inlines it). Light by default, dark when the system prefers it; the series colours
 * keep a contrast of at least 3:1 against both backgrounds, and focus is always visible.
 */
export const THEME_CSS = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --panel: #f6f7f9; --fg: #1b1f24; --muted: #57606a; --border: #d0d7de;
  --accent: #0a58ca; --grid: #e4e7eb; --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e;
  --c0: #0a58ca; --c1: #c2410c; --c2: #15803d; --c3: #7c3aed; --c4: #be123c; --c5: #0e7490;
  --c6: #a16207; --c7: #4b5563;
  --hl-tier: #fff3b0; --hl-injection: #ffd6d6; --hl-context: #d4f0ff;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --panel: #161b22; --fg: #e6edf3; --muted: #9da7b3; --border: #30363d;
    --accent: #58a6ff; --grid: #262c34; --ok: #3fb950; --warn: #d29922; --bad: #f85149;
    --c0: #58a6ff; --c1: #fb923c; --c2: #4ade80; --c3: #c084fc; --c4: #fb7185; --c5: #22d3ee;
    --c6: #facc15; --c7: #a1a1aa;
    --hl-tier: #5c4a00; --hl-injection: #6e1b1b; --hl-context: #0b3d5c;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header.top { display: flex; align-items: center; gap: 16px; padding: 10px 20px;
  border-bottom: 1px solid var(--border); background: var(--panel); }
header.top h1 { font-size: 16px; margin: 0; }
main { padding: 16px 20px; max-width: 1280px; margin: 0 auto; }
h2 { font-size: 15px; margin: 18px 0 8px; }
h3 { font-size: 13px; margin: 0 0 6px; color: var(--muted); text-transform: uppercase;
  letter-spacing: .04em; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
[role=tablist] { display: flex; gap: 4px; }
[role=tab] { background: none; border: 1px solid transparent; border-radius: 6px; color: var(--fg);
  padding: 6px 12px; font: inherit; cursor: pointer; }
[role=tab][aria-selected=true] { border-color: var(--border); background: var(--bg);
  font-weight: 600; }
textarea, input[type=password], input[type=text] { width: 100%; font: 13px/1.4 ui-monospace,
  SFMono-Regular, Menlo, monospace; color: var(--fg); background: var(--bg);
  border: 1px solid var(--border); border-radius: 6px; padding: 8px; }
textarea { min-height: 120px; resize: vertical; }
button.primary { background: var(--accent); color: #fff; border: 0; border-radius: 6px;
  padding: 6px 14px; font: inherit; cursor: pointer; }
.grid2 { margin-top: 12px; display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: 12px; }
.card { background: var(--panel); border: 1px solid var(--border); border-radius: 8px;
  padding: 12px 14px; min-width: 0; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 999px; font-weight: 700;
  border: 1px solid var(--border); background: var(--bg); }
.big { font-size: 22px; font-weight: 700; }
.muted { color: var(--muted); }
.kv { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 8px 0; }
.kv dt { color: var(--muted); } .kv dd { margin: 0; overflow-wrap: anywhere; }
.meter { height: 6px; background: var(--grid); border-radius: 3px; overflow: hidden; }
.meter > i { display: block; height: 100%; background: var(--accent); }
ul.signals { margin: 4px 0; padding-left: 18px; } ul.signals li { overflow-wrap: anywhere; }
ol.chain { margin: 4px 0; padding-left: 20px; }
.text { white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.5 ui-monospace, SFMono-Regular,
  Menlo, monospace; background: var(--bg); border: 1px solid var(--border); border-radius: 6px;
  padding: 8px; max-height: 260px; overflow: auto; }
mark { color: inherit; border-radius: 3px; padding: 0 1px; }
mark.hl-tier { background: var(--hl-tier); }
mark.hl-injection { background: var(--hl-injection); outline: 1px solid var(--bad); }
mark.hl-context { background: var(--hl-context); }
.level-normal { color: var(--ok); } .level-suspicious { color: var(--warn); }
.level-high_risk, .level-unknown { color: var(--bad); }
.tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 10px; }
.tile { background: var(--panel); border: 1px solid var(--border); border-radius: 8px; padding: 8px 12px; }
.tile .big { display: block; }
figure.chart { margin: 0; } figure.chart svg { width: 100%; height: auto; display: block; }
svg text { fill: var(--muted); font-size: 11px; font-family: inherit; }
svg text.value, svg text.label { fill: var(--fg); }
svg .grid { stroke: var(--grid); stroke-width: 1; }
svg .line { fill: none; stroke-width: 2; }
${[0, 1, 2, 3, 4, 5, 6, 7].map((k) => `.s${k} { stroke: var(--c${k}); fill: var(--c${k}); } svg .line.s${k} { fill: none; } .swatch.s${k} { background: var(--c${k}); }`).join('\n')}
.legend { display: flex; flex-wrap: wrap; gap: 4px 12px; font-size: 12px; color: var(--muted); }
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 4px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { border-bottom: 1px solid var(--border); padding: 4px 8px; text-align: left;
  vertical-align: top; overflow-wrap: anywhere; }
th { color: var(--muted); font-weight: 600; }
thead th { white-space: nowrap; overflow-wrap: normal; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.matrix td { text-align: right; font-variant-numeric: tabular-nums; min-width: 56px; }
table.matrix td.diag { font-weight: 700; }
caption { text-align: left; color: var(--muted); padding: 4px 0; }
td.row-text { white-space: pre-wrap; max-width: 60ch; }
.empty { color: var(--muted); font-style: italic; }
.error { color: var(--bad); }
.hidden { display: none !important; }
.row { display: flex; gap: 12px; align-items: center; flex-wrap: wrap; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
`;
