/**
 * Page size: the list-only export (--no-operations) and the fetch ceiling, both as processes, at
 * several --limit values against one simulator, in alternating rounds so that a noisy moment on
 * the machine falls on every size alike. Prints a table and writes bench/results/page-size.json.
 * `npm run build` first; then `node bench/pageSize.mjs [--calls 200k] [--latency 50]
 * [--limits 1000,5000,10000] [--rounds 2]`.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { fetchCeilingProcess, runExport } from "./lib/exporter.mjs";
import { median } from "./lib/median.mjs";
import { ROOT } from "./lib/paths.mjs";
import { startSim } from "./lib/sim.mjs";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "200000" },
    latency: { type: "string", default: "50" },
    limits: { type: "string", default: "1000,5000,10000" },
    rounds: { type: "string", default: "2" },
    out: { type: "string" },
  },
});
const count = (text) => Math.round(Number(text.replace(/k$/i, "e3").replace(/m$/i, "e6")));
const calls = count(values.calls);
const latencyMs = Number(values.latency);
const limits = values.limits.split(",").map(count);
const rounds = Number(values.rounds);
const log = (text) => process.stderr.write(`[page-size ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

const work = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-page-size-"));
const days = Math.max(1, Math.round((90 * calls) / 200_000));
const sim = await startSim({ calls, latencyMs, days });
const samples = [];
try {
  for (let round = 0; round < rounds; round++) {
    // Rotated order each round: no size always runs first or last.
    const order = limits.map((_, i) => limits[(i + round) % limits.length]);
    for (const limit of order) {
      const load = os.loadavg()[0];
      const fetched = await fetchCeilingProcess(sim, limit);
      const dir = path.join(work, `${limit}-${round}`);
      await mkdir(dir, { recursive: true });
      const run = await runExport({
        sim,
        db: path.join(dir, "zoo_usage.duckdb"),
        out: path.join(dir, "parquet"),
        extraArgs: ["--no-operations", "--limit", String(limit)],
      });
      await rm(dir, { recursive: true, force: true });
      const sample = {
        round,
        limit,
        loadAverageBefore: load,
        fetchSeconds: fetched.seconds,
        fetchRequests: fetched.requests,
        exportSeconds: run.wallSeconds,
        scanSeconds: run.summary.phase_seconds.scan,
        exportCpuSeconds: run.cpuSeconds,
        peakRssMb: run.summary.peak_rss_mb ?? run.maxRssMb,
        records: run.summary.records_new,
      };
      samples.push(sample);
      log(
        `limit ${limit}: fetch ${fetched.seconds.toFixed(2)} s, export ${run.wallSeconds.toFixed(2)} s, CPU ${run.cpuSeconds?.toFixed(2)} s, ${sample.peakRssMb} MB (load ${load.toFixed(1)})`,
      );
    }
  }
} finally {
  await sim.stop();
  await rm(work, { recursive: true, force: true });
}

const summary = limits.map((limit) => {
  const mine = samples.filter((s) => s.limit === limit);
  const pick = (key) => median(mine.map((s) => s[key]));
  return {
    limit,
    requests: mine[0].fetchRequests,
    fetchSeconds: pick("fetchSeconds"),
    exportSeconds: pick("exportSeconds"),
    scanSeconds: pick("scanSeconds"),
    exportCpuSeconds: pick("exportCpuSeconds"),
    peakRssMb: pick("peakRssMb"),
  };
});
const result = {
  benchmark: "page size (bench/pageSize.mjs)",
  finished_at: new Date().toISOString(),
  calls,
  latency_ms: latencyMs,
  history_days: days,
  rounds,
  load_average_range: [
    Math.min(...samples.map((s) => s.loadAverageBefore)),
    Math.max(...samples.map((s) => s.loadAverageBefore)),
  ],
  summary,
  samples,
};
const outFile = path.resolve(values.out ?? path.join(ROOT, "bench", "results", "page-size.json"));
await mkdir(path.dirname(outFile), { recursive: true });
await writeFile(outFile, `${JSON.stringify(result, null, 2)}\n`);
console.log("limit   requests  fetch s  export s  scan s  export CPU s  peak RSS MB   (medians)");
for (const s of summary) {
  console.log(
    `${String(s.limit).padEnd(6)}  ${String(s.requests).padStart(8)}  ${s.fetchSeconds.toFixed(2).padStart(7)}  ${s.exportSeconds.toFixed(2).padStart(8)}  ${s.scanSeconds.toFixed(2).padStart(6)}  ${(s.exportCpuSeconds?.toFixed(2) ?? "-").padStart(12)}  ${String(s.peakRssMb).padStart(11)}`,
  );
}
console.log(
  `load average ${result.load_average_range.map((x) => x.toFixed(1)).join("-")}; results: ${path.relative(process.cwd(), outFile)}`,
);
