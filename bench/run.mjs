/**
 * The export benchmark: for each history size and simulated latency, side by side,
 *   1. fetch ceiling: a bare undici loop draining GET /user/api-calls, as a process;
 *   2. zoo-usage export, cold, list only (--no-operations), into an empty database and dataset;
 *   3. zoo-usage export, cold, with default flags (operations included), as a user runs it;
 *   4. operations ceiling: a bare concurrent GET loop over the operations the export fetched, and
 *      over those of the default operations window;
 *   5. zoo-usage export, nightly: the simulator's clock one day on, the same database again.
 * The simulator runs in its own process. Figures go to bench/results/latest.json and a table.
 * `npm run build` first; then `node bench/run.mjs [--quick] [--sizes 200k,1m] [--latencies 50]`.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseBenchArgs, USAGE } from "./lib/args.mjs";
import { benchCell, DAY_MS, LOOKBACK_MS } from "./lib/cell.mjs";
import { machineFacts } from "./lib/machine.mjs";
import { ROOT } from "./lib/paths.mjs";
import { formatReport } from "./lib/table.mjs";

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

const startedAt = new Date();
const startLoad = os.loadavg()[0];
const runs = [];
const datasets = new Map(); // calls -> { records, bytes, load }
// Every cell's simulator starts its clock at the run's start, near the machine's (so that the
// export's operations window, measured from the machine's clock, covers the history as it would for
// a user): the sizes' histories then end on the same calendar day, and their nightly runs read the
// same day, with the same weekday and the same draw of the day's volume.
const simNow = new Date(Math.floor(startedAt.getTime() / 60_000) * 60_000).toISOString();
try {
  for (const calls of options.sizes) {
    for (const latencyMs of options.latencies) {
      runs.push(await benchCell({ calls, latencyMs, simNow, options, work, datasets, log }));
    }
  }
} finally {
  if (!options.keep && !options.work) await rm(work, { recursive: true, force: true });
}

const result = {
  benchmark: "zoo-usage export (bench/run.mjs)",
  started_at: startedAt.toISOString(),
  finished_at: new Date().toISOString(),
  machine: machineFacts(startLoad),
  options: {
    sizes: options.sizes,
    latencies_ms: options.latencies,
    page_limit: options.limit,
    lookback_ms: LOOKBACK_MS,
    nightly_advance_ms: DAY_MS,
    same_daily_volume: options.sameDailyVolume,
    operations: options.operations,
    output_bytes: options.outputBytes,
    operations_concurrency: options.operationsConcurrency,
    operations_window_days: options.operationsWindowDays,
  },
  runs,
};
await mkdir(path.dirname(outFile), { recursive: true });
await writeFile(outFile, `${JSON.stringify(result, null, 2)}\n`);
console.log(formatReport(result));
console.log(`\nresults: ${path.relative(process.cwd(), outFile)}`);
