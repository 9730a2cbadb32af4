import { label } from "./targets.mjs";

function pad(text, width, right = false) {
  const s = String(text);
  return right ? s.padStart(width) : s.padEnd(width);
}

function num(value, digits = 1) {
  return value === null || value === undefined ? "-" : value.toFixed(digits);
}

function rate(value) {
  if (value === null || value === undefined) return "-";
  return value >= 10_000 ? `${Math.round(value / 1000)}k` : String(Math.round(value));
}

/** The human table: one line per measured step, then the targets with PASS/MISS. */
export function formatReport(result) {
  const lines = [];
  const header = ["calls", "lat ms", "step", "wall s", "rec/s", "CPU s", "peak RSS MB", "list requests"];
  const widths = [6, 6, 26, 8, 8, 7, 12, 14];
  const row = (cells) => cells.map((c, i) => pad(c, widths[i], i >= 3)).join("  ");
  lines.push(row(header));
  lines.push(widths.map((w) => "-".repeat(w)).join("  "));
  for (const run of result.runs) {
    const steps = [
      ["fetch ceiling", run.fetch, run.fetch.requests],
      ["load ceiling (read_json)", run.load, "-"],
      ["naive exporter", run.naive, run.naive?.requests],
      ["zoo-usage cold", run.cold, run.cold.requests],
      [
        `zoo-usage nightly (+${run.nightly.newCalls})`,
        { ...run.nightly, recordsPerSecond: null },
        `${run.nightly.requests} (<=${run.nightly.bound})`,
      ],
    ];
    for (const [step, figures, requests] of steps) {
      if (!figures) continue;
      lines.push(
        row([
          label(run.calls),
          run.latencyMs,
          step,
          num(figures.seconds, 2),
          rate(figures.recordsPerSecond),
          num(figures.cpuSeconds),
          figures.peakRssMb ?? "-",
          requests,
        ]),
      );
    }
  }
  lines.push("");
  lines.push("ratios");
  for (const run of result.runs) {
    const r = run.ratios;
    lines.push(
      `  ${label(run.calls)} calls, ${run.latencyMs} ms: export/fetch wall ${num(r.exportOverFetchWall, 2)} (scan phase alone ${num(r.scanOverFetchWall, 2)}), export/fetch rec/s ${num(r.exportOverFetchRate, 2)}` +
        `${r.exportOverNaiveRate === null ? "" : `, export/naive rec/s ${num(r.exportOverNaiveRate, 2)}`}, export/load-ceiling rec/s ${num(r.exportOverLoadRate, 2)}, Parquet/NDJSON bytes ${num(r.parquetOverNdjson, 3)}`,
    );
  }
  lines.push("");
  lines.push("targets");
  for (const t of result.targets) {
    const verdict = t.pass === null ? "n/a " : t.pass ? "PASS" : "MISS";
    const value = t.unit === "x" ? num(t.value, 2) : String(Math.round(t.value));
    lines.push(
      `  ${verdict}  ${t.what}: ${value} (limit ${t.unit === "x" ? t.limit : `${t.limit} ${t.unit}`})`,
    );
  }
  return lines.join("\n");
}
