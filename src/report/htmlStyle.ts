/**
 * The page's only stylesheet, inlined: system fonts, no web font or image to fetch. It lays out
 * by class, so any section reads at 400 px: the page itself never scrolls sideways. On a narrow
 * screen a table (class "stack") turns each row into a block of label-value lines, so an amount
 * sits beside its label; the calls table (class "compact") gives each call two lines; a column
 * chart keeps its text size and scrolls in its box (class "chart-box"), which opens on its right
 * end, the newest days (direction: rtl starts a scroll box there, with no script). Headline figures
 * never wrap; their size follows the card's width (container units) and their length (--chars).
 */
export const PAGE_CSS = `
:root { color-scheme: light; --ink: #1f2933; --muted: #5f6b7a; --line: #e3e8ef; --accent: #2563eb; }
* { box-sizing: border-box; }
body { margin: 0; background: #f6f8fb; color: var(--ink);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 28px 24px 48px; }
h1 { font-size: 24px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 0 0 10px; }
h3 { font-size: 15px; margin: 14px 0 8px; }
p, dd, .sub { overflow-wrap: anywhere; }
.sub { color: var(--muted); margin: 0 0 20px; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(210px, 1fr)); gap: 12px; margin-bottom: 16px; }
.card, section { background: #fff; border: 1px solid var(--line); border-radius: 8px; min-width: 0; }
.card { padding: 12px 14px; container-type: inline-size; }
.card .k { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card .v { font-size: 20px; font-size: clamp(12px, min(10.5cqi, 150cqi / var(--chars, 10)), 28px); line-height: 1.25; font-weight: 600;
  font-variant-numeric: tabular-nums; white-space: nowrap; }
.card .n { color: var(--muted); font-size: 12px; overflow-wrap: anywhere; }
section { padding: 16px 18px; margin-bottom: 16px; }
.note { color: var(--muted); font-size: 12px; margin: 6px 0 0; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 16px; list-style: none; padding: 0; margin: 0 0 6px; color: var(--muted); font-size: 12px; }
.legend span { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; vertical-align: -1px; }
.scroll { max-width: 100%; overflow-x: auto; -webkit-overflow-scrolling: touch; }
.scroll + .scroll { margin-top: 12px; }
svg.chart { display: block; height: auto; }
.bars { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr) max-content; gap: 4px 10px; align-items: center; font-size: 13px; }
.bar-row { display: contents; }
.bar-label { text-align: right; overflow-wrap: anywhere; }
.bar-track { display: block; height: 14px; }
.bar-track .mark { display: block; height: 100%; border-radius: 2px; }
.bar-value { color: var(--muted); font-variant-numeric: tabular-nums; white-space: nowrap; text-align: right; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th, td { text-align: left; padding: 5px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.wrap { overflow-wrap: anywhere; min-width: 18ch; }
td.nowrap, th.nowrap { white-space: nowrap; }
.compact td.c-template { min-width: 24ch; }
.compact .clamp { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; line-clamp: 2; overflow: hidden; }
.compact td.c-id { color: var(--muted); }
tbody tr:last-child td { border-bottom: 0; }
code { font-size: 12px; }
dl { margin: 0; } dt { font-weight: 600; margin-top: 8px; } dd { margin: 2px 0 0; color: var(--muted); }
@media (max-width: 600px) {
  main { padding: 16px 10px 32px; }
  .cards { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 8px; }
  .card { padding: 10px 12px; }
  section { padding: 12px; }
  h1 { font-size: 20px; }
  .bars { grid-template-columns: minmax(0, 1fr) max-content; gap: 2px 8px; }
  .bar-label { grid-column: 1 / -1; text-align: left; margin-top: 6px; }
  .chart-box { direction: rtl; }
  .chart-box svg.chart { direction: ltr; margin-right: auto; }
  .stack thead, .compact thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .stack, .stack tbody, .stack tr, .compact, .compact tbody { display: block; }
  .stack tr { padding: 6px 0; border-bottom: 1px solid var(--line); }
  .stack td { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; padding: 1px 0;
    border: 0; min-width: 0; text-align: right; white-space: normal; overflow-wrap: anywhere; }
  .stack td.num { white-space: nowrap; }
  .stack td::before { content: attr(data-label); color: var(--muted); text-align: left; white-space: normal; }
  .stack td.key, .stack td[data-label=""] { justify-content: flex-start; text-align: left; }
  .stack td.key { font-weight: 600; }
  .stack td.key::before, .stack td[data-label=""]::before { content: none; }
  .stack td:empty { display: none; }
  .pairs tr { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 16px; }
  .pairs td.key { flex: 1 0 auto; }
  .pairs td:not(.key) { gap: 6px; }
  .compact tr { display: grid; grid-template-columns: max-content max-content minmax(0, 1fr) max-content;
    grid-template-areas: "price created id id" "method route route status" "email email email email";
    gap: 0 8px; padding: 5px 0; border-bottom: 1px solid var(--line); }
  .compact td { padding: 0; border: 0; min-width: 0; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  .compact td.c-template { min-width: 0; }
  .compact .c-price { grid-area: price; font-weight: 600; } .compact .c-created { grid-area: created; }
  .compact .c-id { grid-area: id; text-align: right; } .compact .c-method { grid-area: method; }
  .compact .c-template { grid-area: route; } .compact .c-status { grid-area: status; }
  .compact .c-email { grid-area: email; } .compact .frac { display: none; }
  .compact .clamp { display: inline; } .compact wbr { display: none; }
}
`;
