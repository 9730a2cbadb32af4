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
  const header = ["calls", "lat ms", "step", "wall s", "rec/s", "CPU s", "peak RSS MB", "requests"];
  const widths = [6, 6, 27, 8, 8, 7, 12, 10];
  const row = (cells) => cells.map((c, i) => pad(c, widths[i], i >= 3)).join("  ");
  lines.push(row(header));
  lines.push(widths.map((w) => "-".repeat(w)).join("  "));
  for (const run of result.runs) {
    const ops = run.operations;
    const steps = [
      ["fetch ceiling (process)", run.fetch, run.fetch.requests],
      ["load ceiling (read_json)", run.load, "-"],
      ["naive exporter (reference)", run.naive, run.naive?.requests],
      ["zoo-usage cold, list only", run.listOnly, run.listOnly.requests],
      ["zoo-usage cold, defaults", run.cold, run.cold ? requestsText(run.cold.requestsByRoute) : "-"],
      [
        `operations ceiling (x${ops?.concurrency})`,
        ops && { ...ops.ceiling, recordsPerSecond: null },
        ops ? `${ops.ceiling.requests} ops` : "-",
      ],
      [
        `  of the ${ops?.windowDays}-day window`,
        ops && ops.windowCeiling !== ops.ceiling ? { ...ops.windowCeiling, recordsPerSecond: null } : null,
        ops ? `${ops.windowCeiling.requests} ops` : "-",
      ],
      [
        `zoo-usage nightly (+${run.nightly.newCalls})`,
        { ...run.nightly, recordsPerSecond: null },
        `${requestsText(run.nightly.requestsByRoute)} (<=${run.nightly.bound}+, all <=${run.nightly.requestBound})`,
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
    const r = ratiosOf(run);
    lines.push(
      `  ${label(run.calls)} calls, ${run.latencyMs} ms: list-only export/fetch wall ${num(r.listOverFetchWall, 2)} (scan phase alone ${num(r.scanOverFetchWall, 2)}), rec/s ${num(r.listOverFetchRate, 2)}` +
        `, CPU ${num(run.listOnly.cpuMicrosPerRecord)} us/record` +
        `${r.listOverNaiveRate === null ? "" : `, list-only/naive rec/s ${num(r.listOverNaiveRate, 2)}`}` +
        `${r.coldOverBudget === null ? "" : `; defaults: wall / (fetch + window operations ceilings) ${num(r.coldOverBudget, 2)}, operations ceiling / phase ${num(r.operationsCeilingOverPhase, 2)}`}` +
        `; Parquet/NDJSON bytes ${num(r.parquetOverNdjson, 3)}`,
    );
  }
  lines.push("");
  lines.push("targets");
  for (const t of result.targets) {
    const verdict = t.pass === null ? "n/a " : t.pass ? "PASS" : "MISS";
    const value =
      t.value === null || t.value === undefined
        ? "-"
        : t.unit === "x"
          ? num(t.value, 2)
          : String(Math.round(t.value));
    lines.push(
      `  ${verdict}  ${t.what}: ${value} (limit ${t.unit === "x" ? t.limit : `${t.limit} ${t.unit}`})`,
    );
  }
  return lines.join("\n");
}

/** Requests by route, shortest first: `201` for list requests alone, `201 + 12 one + 5,300 ops`. */
function requestsText(byRoute) {
  const list = byRoute["/user/api-calls"] ?? 0;
  const one = byRoute["/user/api-calls/{id}"] ?? 0;
  const ops = byRoute["/async/operations/{id}"] ?? 0;
  return `${list}${one ? ` + ${one} one` : ""}${ops ? ` + ${ops} ops` : ""}`;
}

/** The ratios the results file keeps per run (targets.mjs judges them). */
export function ratiosOf(run) {
  const budget = run.cold && run.operations ? run.fetch.seconds + run.operations.windowCeiling.seconds : null;
  const phase = run.cold?.phaseSeconds.operations;
  return {
    listOverFetchWall: run.listOnly.seconds / run.fetch.seconds,
    // Not a target: the scan alone (first list request to last commit), without the process
    // start, the database set-up, the last Parquet partitions and the close around it.
    scanOverFetchWall: run.listOnly.phaseSeconds.scan / run.fetch.seconds,
    listOverFetchRate: run.listOnly.recordsPerSecond / run.fetch.recordsPerSecond,
    listOverNaiveRate: run.naive === null ? null : run.listOnly.recordsPerSecond / run.naive.recordsPerSecond,
    listOverLoadRate: run.listOnly.recordsPerSecond / run.load.recordsPerSecond,
    coldOverBudget: budget === null ? null : run.cold.seconds / budget,
    operationsCeilingOverPhase: phase ? run.operations.ceiling.seconds / phase : null,
    parquetOverNdjson: run.listOnly.parquetBytes / run.ndjsonBytes,
  };
}
