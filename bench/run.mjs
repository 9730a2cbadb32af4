/**
 * The export benchmark (issue 5): for each history size and simulated latency, side by side,
 *   1. fetch ceiling: a bare undici loop draining GET /user/api-calls;
 *   2. load ceiling: DuckDB's read_json loading the same records from NDJSON (file written untimed);
 *   3. naive exporter: fetch, JSON.parse, append row by row, next page; COPY to Parquet at the end;
 *   4. zoo-usage export, cold, into an empty database and dataset (the built CLI as a child);
 *   5. zoo-usage export, nightly: the simulator's clock one day on, the same database again.
 * The simulator runs in its own process. Figures go to bench/results/latest.json and a table.
 * `npm run build` first; then `node bench/run.mjs [--quick] [--sizes 200k,1m] [--latencies 0,50]`.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseBenchArgs, USAGE } from "./lib/args.mjs";
import { directoryBytes, nightlyExpectation, runExport, runNode } from "./lib/exporter.mjs";
import { fetchCeiling, LIMIT, writeNdjson } from "./lib/fetchAll.mjs";
import { loadCeiling } from "./lib/loadCeiling.mjs";
import { ROOT } from "./lib/paths.mjs";
import { startSim } from "./lib/sim.mjs";
import { formatReport } from "./lib/table.mjs";
import { evaluateTargets, label } from "./lib/targets.mjs";

const DAY_MS = 86_400_000;
const LOOKBACK_MS = 3 * DAY_MS; // the export's default --lookback

const options = parseBenchArgs(process.argv.slice(2));
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}
const log = (text) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
const outFile = path.resolve(options.out ?? path.join(ROOT, "bench", "results", "latest.json"));
const work = options.work
  ? path.resolve(options.work)
  : await mkdtemp(path.join(os.tmpdir(), "zoo-usage-bench-"));
await mkdir(work, { recursive: true });
if (options.cpuProfDir) await mkdir(path.resolve(options.cpuProfDir), { recursive: true });

// The export also fetches async operations (one request per operation): that is not what these
// targets measure, so it is off unless asked for.
const exportArgs = options.withOperations ? [] : ["--no-operations"];

const startedAt = new Date();
const startLoad = os.loadavg()[0];
const runs = [];
const datasets = new Map(); // calls -> { records, bytes, load }
try {
  for (const calls of options.sizes) {
    for (const latencyMs of options.latencies) {
      runs.push(await benchOne(calls, latencyMs));
    }
  }
} finally {
  if (!options.keep && !options.work) await rm(work, { recursive: true, force: true });
}

const result = {
  benchmark: "zoo-usage export (bench/run.mjs)",
  started_at: startedAt.toISOString(),
  finished_at: new Date().toISOString(),
  machine: {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? "unknown",
    memory_total_gib: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    // Other work on the machine shows here (1-minute load average; 2 means both cores busy).
    load_average_at_start: startLoad,
    load_average_at_end: os.loadavg()[0],
  },
  options: {
    sizes: options.sizes,
    latencies_ms: options.latencies,
    page_limit: LIMIT,
    lookback_ms: LOOKBACK_MS,
    nightly_advance_ms: DAY_MS,
    same_daily_volume: options.sameDailyVolume,
    export_args: exportArgs,
  },
  runs,
};
result.targets = evaluateTargets(runs);
await mkdir(path.dirname(outFile), { recursive: true });
await writeFile(outFile, `${JSON.stringify(result, null, 2)}\n`);
console.log(formatReport(result));
console.log(`\nresults: ${path.relative(process.cwd(), outFile)}`);

async function benchOne(calls, latencyMs) {
  const dir = path.join(work, `${calls}-${latencyMs}ms`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const tag = `${label(calls)} calls, ${latencyMs} ms`;
  log(`${tag}: starting the simulator`);
  const days = options.sameDailyVolume ? Math.max(1, Math.round((90 * calls) / 200_000)) : 90;
  const sim = await startSim({ calls, latencyMs, days });
  try {
    let dataset = datasets.get(calls);
    if (dataset === undefined) {
      log(`${tag}: writing the NDJSON reference (untimed)`);
      const ndjson = path.join(work, `${calls}.ndjson`);
      const written = await writeNdjson(sim, ndjson);
      log(`${tag}: load ceiling`);
      const load = await loadCeiling(ndjson, path.join(work, `${calls}-load.duckdb`));
      await rm(ndjson, { force: true });
      await rm(path.join(work, `${calls}-load.duckdb`), { force: true });
      dataset = { records: written.records, bytes: written.bytes, load };
      datasets.set(calls, dataset);
    }
    const records = dataset.records;
    const perSecond = (seconds) => records / seconds;

    // The fetch ceiling is measured before and after the cold exports (same data), and the faster
    // run is the ceiling: a noisy moment must not make the export look closer to it than it is.
    log(`${tag}: fetch ceiling`);
    const fetchLoad = os.loadavg()[0];
    const fetchedBefore = await fetchCeiling(sim);

    let naive = null;
    if (options.naive) {
      log(`${tag}: naive exporter`);
      const run = await runNode(
        [
          path.join(ROOT, "bench", "naive.mjs"),
          path.join(dir, "naive.duckdb"),
          path.join(dir, "naive.parquet"),
        ],
        { env: { BENCH_URL: sim.url, BENCH_TOKEN: sim.token } },
      );
      if (run.code !== 0) throw new Error(`naive exporter exited ${run.code}:\n${run.stderr.slice(-4000)}`);
      const figures = JSON.parse(run.stdout);
      naive = {
        seconds: run.wallSeconds,
        inner_seconds: figures.seconds,
        records: figures.records,
        recordsPerSecond: figures.records / run.wallSeconds,
        peakRssMb: figures.peak_rss_mb,
        cpuSeconds: run.cpuSeconds,
        requests: figures.requests,
      };
      await rm(path.join(dir, "naive.duckdb"), { force: true });
    }

    const db = path.join(dir, "zoo_usage.duckdb");
    const out = path.join(dir, "parquet");
    const cpuProfDir = options.cpuProfDir
      ? path.resolve(options.cpuProfDir, `${calls}-${latencyMs}ms`)
      : undefined;

    // One export as a user runs it, with the list requests the simulator served for it.
    const exportCounting = async (kind) => {
      const before = await sim.listRequests();
      const result = await runExport({
        sim,
        db,
        out,
        extraArgs: exportArgs,
        cpuProfDir: cpuProfDir && path.join(cpuProfDir, kind),
      });
      return { ...result, listRequests: (await sim.listRequests()) - before };
    };

    log(`${tag}: zoo-usage export, cold`);
    const coldLoad = os.loadavg()[0];
    const cold = await exportCounting("cold");
    const parquetBytes = await directoryBytes(out);

    log(`${tag}: fetch ceiling again`);
    const fetchedAfter = await fetchCeiling(sim);
    const fetched = fetchedAfter.seconds < fetchedBefore.seconds ? fetchedAfter : fetchedBefore;

    log(`${tag}: zoo-usage export, nightly (clock +1 day)`);
    await sim.advanceClock(DAY_MS);
    const nightly = await exportCounting("nightly");
    const expected = await nightlyExpectation(db, {
      coldRunId: cold.summary.run_id,
      nightlyRunId: nightly.summary.run_id,
      lookbackMs: LOOKBACK_MS,
      limit: LIMIT,
    });

    const run = {
      calls,
      latencyMs,
      historyDays: days,
      records,
      ndjsonBytes: dataset.bytes,
      fetch: {
        seconds: fetched.seconds,
        runsSeconds: [fetchedBefore.seconds, fetchedAfter.seconds],
        recordsPerSecond: perSecond(fetched.seconds),
        requests: fetched.requests,
        bodyBytes: fetched.bodyBytes,
        loadAverageBefore: fetchLoad,
      },
      load: { seconds: dataset.load.seconds, recordsPerSecond: dataset.load.records / dataset.load.seconds },
      naive,
      cold: {
        seconds: cold.wallSeconds,
        summarySeconds: cold.summary.seconds,
        phaseSeconds: cold.summary.phase_seconds,
        records: cold.summary.records_new,
        recordsPerSecond: cold.summary.records_new / cold.wallSeconds,
        peakRssMb: cold.summary.peak_rss_mb ?? cold.maxRssMb,
        cpuSeconds: cold.cpuSeconds,
        loadAverageBefore: coldLoad,
        requests: cold.listRequests,
        summaryRequests: cold.summary.requests,
        partitionsWritten: cold.summary.partitions_written,
        parquetBytes,
      },
      nightly: {
        seconds: nightly.wallSeconds,
        summarySeconds: nightly.summary.seconds,
        phaseSeconds: nightly.summary.phase_seconds,
        requests: nightly.listRequests,
        summaryRequests: nightly.summary.requests,
        recordsSeen: nightly.summary.records_seen,
        recordsUpdated: nightly.summary.records_updated,
        // Calls pending billing from before the window, re-read one request each (not in `requests`).
        pendingRereads: nightly.summary.pending_rereads ?? null,
        partitionsWritten: nightly.summary.partitions_written,
        peakRssMb: nightly.summary.peak_rss_mb ?? nightly.maxRssMb,
        cpuSeconds: nightly.cpuSeconds,
        ...expected,
      },
    };
    run.ratios = {
      exportOverFetchWall: run.cold.seconds / run.fetch.seconds,
      // Not a target: the scan alone (first list request to last commit), without the process
      // start, the database set-up, the last Parquet partitions and the close around it.
      scanOverFetchWall: run.cold.phaseSeconds.scan / run.fetch.seconds,
      exportOverFetchRate: run.cold.recordsPerSecond / run.fetch.recordsPerSecond,
      exportOverNaiveRate: naive === null ? null : run.cold.recordsPerSecond / naive.recordsPerSecond,
      exportOverLoadRate: run.cold.recordsPerSecond / run.load.recordsPerSecond,
      parquetOverNdjson: parquetBytes / dataset.bytes,
    };
    if (cold.summary.records_new !== records) {
      log(`${tag}: WARNING the export stored ${cold.summary.records_new} calls, the API listed ${records}`);
    }
    log(
      `${tag}: fetch ${fetched.seconds.toFixed(1)} s, export ${cold.wallSeconds.toFixed(1)} s ` +
        `(scan ${cold.summary.phase_seconds.scan.toFixed(1)} s, ${cold.summary.peak_rss_mb} MB), nightly ${nightly.wallSeconds.toFixed(1)} s ${nightly.listRequests} requests`,
    );
    return run;
  } finally {
    await sim.stop();
    if (!options.keep) await rm(dir, { recursive: true, force: true });
  }
}
