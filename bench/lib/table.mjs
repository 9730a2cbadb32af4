import { callsLabel } from "./callsLabel.mjs";

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

/** The human table: one line per measured step, then each cell's ratios. */
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
          callsLabel(run.calls),
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
      `  ${callsLabel(run.calls)} calls, ${run.latencyMs} ms: list-only export/fetch wall ${num(r.listOverFetchWall, 2)} (scan phase alone ${num(r.scanOverFetchWall, 2)})` +
        `, CPU ${num(run.listOnly.cpuMicrosPerRecord)} us/record` +
        `${r.coldOverBudget === null ? "" : `; defaults: wall / (fetch + window operations ceilings) ${num(r.coldOverBudget, 2)}, operations ceiling / phase ${num(r.operationsCeilingOverPhase, 2)}`}` +
        `; Parquet/NDJSON bytes ${num(r.parquetOverNdjson, 3)}`,
    );
  }
  lines.push(...acrossSizes(result.runs));
  return lines.join("\n");
}

/**
 * Largest against smallest size at each latency: with the same recent traffic (run.mjs's default),
 * a nightly run and the peak memory should not grow with the history.
 */
function acrossSizes(runs) {
  const sizes = [...new Set(runs.map((run) => run.calls))].sort((a, b) => a - b);
  if (sizes.length < 2) return [];
  const [smallest, largest] = [sizes[0], sizes.at(-1)];
  const lines = [];
  for (const latencyMs of new Set(runs.map((run) => run.latencyMs))) {
    const find = (calls) => runs.find((run) => run.calls === calls && run.latencyMs === latencyMs);
    const [small, big] = [find(smallest), find(largest)];
    if (small === undefined || big === undefined) continue;
    const peak = (run) => (run.cold ?? run.listOnly).peakRssMb;
    lines.push(
      `  ${callsLabel(largest)} / ${callsLabel(smallest)}, ${latencyMs} ms: nightly wall ${num(big.nightly.seconds / small.nightly.seconds, 2)}, peak RSS ${num(peak(big) / peak(small), 2)}`,
    );
  }
  return lines;
}

/** Requests by route, shortest first: `201` for list requests alone, `201 + 12 one + 5,300 ops`. */
function requestsText(byRoute) {
  const list = byRoute["/user/api-calls"] ?? 0;
  const one = byRoute["/user/api-calls/{id}"] ?? 0;
  const ops = byRoute["/async/operations/{id}"] ?? 0;
  return `${list}${one ? ` + ${one} one` : ""}${ops ? ` + ${ops} ops` : ""}`;
}

/** The ratios the results file keeps per run. */
export function ratiosOf(run) {
  const budget = run.cold && run.operations ? run.fetch.seconds + run.operations.windowCeiling.seconds : null;
  const phase = run.cold?.phaseSeconds.operations;
  return {
    listOverFetchWall: run.listOnly.seconds / run.fetch.seconds,
    // The scan alone (first list request to last commit), without the process start, the
    // database set-up, the last Parquet partitions and the close around it.
    scanOverFetchWall: run.listOnly.phaseSeconds.scan / run.fetch.seconds,
    coldOverBudget: budget === null ? null : run.cold.seconds / budget,
    operationsCeilingOverPhase: phase ? run.operations.ceiling.seconds / phase : null,
    parquetOverNdjson: run.listOnly.parquetBytes / run.ndjsonBytes,
  };
}
