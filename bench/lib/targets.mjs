/**
 * The targets, as ratios so that they hold on a noisy 2-core machine. Each comparison is made
 * between runs of this one benchmark invocation. The list-only export (--no-operations) answers
 * the targets about the list scan; the export with default flags (operations included) answers
 * those about the export as a user runs it. The naive exporter is a reference row, no target.
 */
export function evaluateTargets(runs, { sameDailyVolume = true } = {}) {
  const targets = [];
  const add = (id, what, value, limit, pass, unit = "x") =>
    targets.push({ id, what, value, limit, unit, pass: value === null || value === undefined ? null : pass });
  const sizes = [...new Set(runs.map((r) => r.calls))].sort((a, b) => a - b);
  const smallest = sizes[0];
  const largest = sizes.at(-1);
  const find = (calls, latencyMs) => runs.find((r) => r.calls === calls && r.latencyMs === latencyMs);
  const exportRun = (run) => run.cold ?? run.listOnly;

  for (const run of runs) {
    const at = `${label(run.calls)} calls, ${run.latencyMs} ms`;
    if (run.latencyMs > 0) {
      const ratio = run.listOnly.seconds / run.fetch.seconds;
      add(
        "hide-behind-network",
        `list-only export wall / fetch ceiling process wall (${at})`,
        ratio,
        1.05,
        ratio <= 1.05,
      );
    } else {
      const vsFetch = run.listOnly.recordsPerSecond / run.fetch.recordsPerSecond;
      add(
        "throughput-vs-fetch",
        `list-only export rec/s / fetch ceiling rec/s (${at})`,
        vsFetch,
        0.5,
        vsFetch >= 0.5,
      );
    }
    if (run.calls === largest) {
      const us = run.listOnly.cpuMicrosPerRecord;
      add("cpu-per-record", `list-only export CPU (user+sys) per record (${at})`, us, 20, us <= 20, "us");
    }
    if (run.cold && run.operations) {
      const phase = run.cold.phaseSeconds.operations;
      const vsCeiling = phase > 0 ? run.operations.ceiling.seconds / phase : null;
      add(
        "operations-vs-ceiling",
        `operations ceiling wall / export's operations phase (${run.operations.fetchedIds} operations, ${at})`,
        vsCeiling,
        0.8,
        vsCeiling >= 0.8,
      );
      if (run.latencyMs > 0) {
        const budget = run.fetch.seconds + run.operations.windowCeiling.seconds;
        const ratio = run.cold.seconds / budget;
        add(
          "cold-default-flags",
          `default-flags export wall / (fetch ceiling + operations ceiling of the ${run.operations.windowDays}-day window, ${run.operations.windowIds} operations) (${at})`,
          ratio,
          1.1,
          ratio <= 1.1,
        );
      }
    }
    if (run.calls === largest) {
      const rss = exportRun(run).peakRssMb;
      const kind = run.cold ? "default-flags" : "list-only";
      add("rss-cap", `${kind} export peak RSS (${at})`, rss, 350, rss < 350, "MB");
    }
    add(
      "nightly-list-requests",
      `nightly list requests / ceil((new + window) / limit) + 2 = ${run.nightly.bound} (${at})`,
      run.nightly.requests,
      run.nightly.bound,
      run.nightly.requests <= run.nightly.bound,
      "requests",
    );
    add(
      "nightly-requests",
      `nightly requests, every route / list bound + re-reads ${run.nightly.pendingRereads?.asked ?? 0} + new operations ${run.nightly.newOperationCalls} + unfinished ${run.operations?.unfinishedAfterCold ?? 0} + account reads 5 (balance, tokens, invoices) = ${run.nightly.requestBound} (${at})`,
      run.nightly.allRequests,
      run.nightly.requestBound,
      run.nightly.allRequests <= run.nightly.requestBound,
      "requests",
    );
  }
  const latencies = [...new Set(runs.map((r) => r.latencyMs))];
  if (largest !== smallest) {
    for (const latencyMs of latencies) {
      const big = find(largest, latencyMs);
      const small = find(smallest, latencyMs);
      if (!big || !small) continue;
      const vs = `${label(largest)} vs ${label(smallest)}, ${latencyMs} ms`;
      const rss = exportRun(big).peakRssMb / exportRun(small).peakRssMb;
      add("rss-flat", `export peak RSS ratio (${vs})`, rss, 1.2, rss <= 1.2);
      const nightly = big.nightly.seconds / small.nightly.seconds;
      // Only with the same daily volume is a flat nightly expected: otherwise the larger history
      // holds more calls per day, and the nightly run reads more of them.
      add(
        "nightly-flat",
        `nightly wall ratio (${vs}${sameDailyVolume ? ", same daily volume" : ", 90 days at both sizes: not a target"})`,
        nightly,
        1.2,
        sameDailyVolume ? nightly <= 1.2 : null,
      );
      if (!sameDailyVolume) targets.at(-1).pass = null;
    }
  }
  for (const calls of sizes) {
    const run = runs.find((r) => r.calls === calls);
    const ratio = run.listOnly.parquetBytes / run.ndjsonBytes;
    add("parquet-size", `Parquet bytes / NDJSON bytes (${label(calls)} calls)`, ratio, 0.12, ratio <= 0.12);
  }
  return targets;
}

export function label(calls) {
  if (calls >= 1_000_000 && calls % 100_000 === 0) return `${calls / 1_000_000}M`;
  if (calls >= 1_000 && calls % 1_000 === 0) return `${calls / 1_000}k`;
  return String(calls);
}
