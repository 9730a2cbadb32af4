/**
 * The targets, as ratios so that they hold on a noisy 2-core machine. Each comparison is
 * made between runs of this one benchmark invocation.
 */
export function evaluateTargets(runs) {
  const targets = [];
  const add = (id, what, value, limit, pass, unit = "x") =>
    targets.push({ id, what, value, limit, unit, pass: value === null ? null : pass });
  const sizes = [...new Set(runs.map((r) => r.calls))].sort((a, b) => a - b);
  const smallest = sizes[0];
  const largest = sizes.at(-1);
  const find = (calls, latencyMs) => runs.find((r) => r.calls === calls && r.latencyMs === latencyMs);

  for (const run of runs) {
    const at = `${label(run.calls)} calls, ${run.latencyMs} ms`;
    if (run.latencyMs > 0) {
      const ratio = run.cold.seconds / run.fetch.seconds;
      add("hide-behind-network", `export wall / fetch ceiling wall (${at})`, ratio, 1.05, ratio <= 1.05);
    } else {
      const vsFetch = run.cold.recordsPerSecond / run.fetch.recordsPerSecond;
      add("throughput-vs-fetch", `export rec/s / fetch ceiling rec/s (${at})`, vsFetch, 0.5, vsFetch >= 0.5);
      if (run.naive) {
        const vsNaive = run.cold.recordsPerSecond / run.naive.recordsPerSecond;
        add("throughput-vs-naive", `export rec/s / naive rec/s (${at})`, vsNaive, 3, vsNaive >= 3);
      }
    }
    add("rss-cap", `export peak RSS (${at})`, run.cold.peakRssMb, 300, run.cold.peakRssMb < 300, "MB");
    add(
      "nightly-requests",
      `nightly list requests / ceil((new + window) / limit) + 2 = ${run.nightly.bound} (${at})`,
      run.nightly.requests,
      run.nightly.bound,
      run.nightly.requests <= run.nightly.bound,
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
      const rss = big.cold.peakRssMb / small.cold.peakRssMb;
      add("rss-flat", `export peak RSS ratio (${vs})`, rss, 1.2, rss <= 1.2);
      const nightly = big.nightly.seconds / small.nightly.seconds;
      add("nightly-flat", `nightly wall ratio (${vs})`, nightly, 1.5, nightly <= 1.5);
    }
  }
  for (const calls of sizes) {
    const run = runs.find((r) => r.calls === calls);
    const ratio = run.cold.parquetBytes / run.ndjsonBytes;
    add("parquet-size", `Parquet bytes / NDJSON bytes (${label(calls)} calls)`, ratio, 0.12, ratio <= 0.12);
  }
  return targets;
}

export function label(calls) {
  if (calls >= 1_000_000 && calls % 100_000 === 0) return `${calls / 1_000_000}M`;
  if (calls >= 1_000 && calls % 1_000 === 0) return `${calls / 1_000}k`;
  return String(calls);
}
