/** The page's only stylesheet, inlined: system fonts, no web font or image to fetch. */
export const PAGE_CSS = `
:root { color-scheme: light; --ink: #1f2933; --muted: #5f6b7a; --line: #e3e8ef; --accent: #2563eb; }
* { box-sizing: border-box; }
body { margin: 0; background: #f6f8fb; color: var(--ink);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 28px 24px 48px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 0 0 10px; }
.sub { color: var(--muted); margin: 0 0 20px; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: 12px; margin-bottom: 16px; }
.card, section { background: #fff; border: 1px solid var(--line); border-radius: 8px; }
.card { padding: 12px 14px; }
.card .k { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card .v { font-size: 18px; font-weight: 600; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
.card .n { color: var(--muted); font-size: 12px; }
section { padding: 16px 18px; margin-bottom: 16px; }
.note { color: var(--muted); font-size: 12px; margin: 6px 0 0; }
.legend { display: flex; gap: 16px; list-style: none; padding: 0; margin: 0 0 6px; color: var(--muted); font-size: 12px; }
.legend span { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; vertical-align: -1px; }
svg.chart { display: block; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.wrap { overflow-wrap: anywhere; }
td.nowrap, th.nowrap { white-space: nowrap; }
code { font-size: 12px; }
dl { margin: 0; } dt { font-weight: 600; margin-top: 8px; } dd { margin: 2px 0 0; color: var(--muted); }
`;
