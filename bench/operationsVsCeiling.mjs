/**
 * The operations phase against its ceiling, side by side: one simulator, then RUNS rounds of (a fresh
 * export with default flags, the bare GET loop over the ids that export asked about, at the same
 * concurrency). Prints each round and the median ratio ceiling seconds / phase seconds.
 * With --baseline-cli (another build's dist/bin/zoo-usage.js, e.g. a copy of dist/ made before a change)
 * each round also runs that build's export, in alternating order, for a before/after ratio; --cli
 * measures another build than dist/ as the current one (a copy, so that a rebuild mid-run is harmless).
 * Main-thread CPU per operation is printed for both sides (bench/lib/mainThreadCpu.mjs): for the
 * export from its first operation request to the end of its last (bench/lib/operationsCpuHook.mjs),
 * for the bare loop around it. With --cpu-prof each export is also profiled, and the phase's busy
 * samples per operation are printed (bench/lib/phaseCpu.mjs: they count waits for a core too).
 * usage: node bench/operationsVsCeiling.mjs [--calls 20000] [--latency-ms 0] [--runs 3]
 *        [--concurrency 8] [--output-bytes 0] [--cpu-prof DIR] [--baseline-cli PATH] [--cli PATH]
 *        [--results FILE] [-- extra export flags]
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { runExport } from "./lib/exporter.mjs";
import { mainThreadCpuUs } from "./lib/mainThreadCpu.mjs";
import { operationsCeiling, storedOperationIds } from "./lib/operationsCeiling.mjs";
import { CLI, ROOT } from "./lib/paths.mjs";
import { operationsPhaseCpu } from "./lib/phaseCpu.mjs";
import { startSim } from "./lib/sim.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    calls: { type: "string", default: "20000" },
    "latency-ms": { type: "string", default: "0" },
    runs: { type: "string", default: "3" },
    concurrency: { type: "string", default: "8" },
    "output-bytes": { type: "string", default: "0" },
    "cpu-prof": { type: "string" },
    "baseline-cli": { type: "string" },
    cli: { type: "string" },
    results: { type: "string" },
  },
});
const concurrency = Number(values.concurrency);
const builds = [{ label: "current", cli: values.cli === undefined ? CLI : path.resolve(values.cli) }];
if (values["baseline-cli"] !== undefined)
  builds.push({ label: "baseline", cli: path.resolve(values["baseline-cli"]) });
const sim = await startSim({
  calls: Number(values.calls),
  latencyMs: Number(values["latency-ms"]),
  outputBytes: Number(values["output-bytes"]),
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rounds = [];

/** One export with `build`: its operations phase, the ids it stored, its CPU per operation if profiled. */
async function exportOnce(build, run) {
  const dir = await mkdtemp(path.join(tmpdir(), "ops-vs-ceiling-"));
  try {
    const db = path.join(dir, "zoo.duckdb");
    const profDir =
      values["cpu-prof"] === undefined
        ? undefined
        : path.resolve(values["cpu-prof"], `${build.label}-${run}`);
    if (profDir !== undefined) await mkdir(profDir, { recursive: true });
    const { summary, stderr } = await runExport({
      sim,
      db,
      out: path.join(dir, "parquet"),
      extraArgs: ["--operations-concurrency", String(concurrency), ...positionals],
      cpuProfDir: profDir,
      cli: build.cli,
      nodeArgs: ["--import", pathToFileURL(path.join(ROOT, "bench", "lib", "operationsCpuHook.mjs")).href],
    });
    const measured = /BENCH_OPERATIONS_CPU (\S+) (\d+) (\S+)/.exec(stderr);
    const ids = await storedOperationIds(db);
    const busy = profDir === undefined ? undefined : await operationsPhaseCpu(profDir);
    return {
      phaseSeconds: summary.phase_seconds.operations,
      ids,
      cpuUsPerOperation:
        measured === null ? undefined : Math.round(Number(measured[1]) / Number(measured[2])),
      processCpuUsPerOperation:
        measured === null ? undefined : Math.round(Number(measured[3]) / Number(measured[2])),
      busyUsPerOperation: busy === undefined ? undefined : Math.round(busy.cpuUs / ids.length),
      concurrency: summary.operations?.concurrency,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

try {
  for (let run = 0; run < Number(values.runs); run++) {
    const order = run % 2 === 0 ? builds : [...builds].reverse();
    const exports = {};
    for (const build of order) exports[build.label] = await exportOnce(build, run);
    const { ids } = exports.current;
    const cpuBefore = mainThreadCpuUs();
    const ceiling = await operationsCeiling({ baseUrl: sim.url, token: sim.token, ids, concurrency });
    const cpuUs = mainThreadCpuUs() - cpuBefore;
    const round = {
      run,
      load: Number(loadavg()[0].toFixed(2)),
      operations: ids.length,
      ceilingSeconds: Number(ceiling.seconds.toFixed(3)),
      ceilingCpuUsPerOperation: Math.round(cpuUs / ids.length),
    };
    for (const build of builds) {
      const {
        phaseSeconds,
        cpuUsPerOperation,
        processCpuUsPerOperation,
        busyUsPerOperation,
        concurrency: trace,
      } = exports[build.label];
      round[build.label] = {
        phaseSeconds,
        ratio: Number((ceiling.seconds / phaseSeconds).toFixed(3)),
        cpuUsPerOperation,
        processCpuUsPerOperation,
        ...(busyUsPerOperation === undefined ? {} : { busyUsPerOperation }),
        concurrency: trace,
      };
    }
    if (exports.baseline !== undefined) {
      round.speedup = Number((exports.baseline.phaseSeconds / exports.current.phaseSeconds).toFixed(3));
    }
    rounds.push(round);
    console.log(JSON.stringify(round));
  }
  const summary = {
    ratio: median(rounds.map((round) => round.current.ratio)),
    cpuUsPerOperation: median(rounds.map((round) => round.current.cpuUsPerOperation ?? 0)),
    ceilingCpuUsPerOperation: median(rounds.map((round) => round.ceilingCpuUsPerOperation)),
  };
  if (builds.length > 1) {
    summary.baselineRatio = median(rounds.map((round) => round.baseline.ratio));
    summary.baselineCpuUsPerOperation = median(rounds.map((round) => round.baseline.cpuUsPerOperation ?? 0));
    summary.speedup = median(rounds.map((round) => round.speedup));
  }
  console.log(`median over ${rounds.length} rounds: ${JSON.stringify(summary)}`);
  if (values.results !== undefined) {
    const settings = {
      calls: Number(values.calls),
      latencyMs: Number(values["latency-ms"]),
      concurrency,
      outputBytes: Number(values["output-bytes"]),
      extraArgs: positionals,
      profiled: values["cpu-prof"] !== undefined,
    };
    await writeFile(
      values.results,
      `${JSON.stringify({ date: new Date().toISOString(), settings, rounds, median: summary }, null, 2)}\n`,
    );
  }
} finally {
  await sim.stop();
}
