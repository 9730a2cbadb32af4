/**
 * The operations phase against its ceiling, side by side: one simulator, then RUNS pairs of (a fresh
 * export with default flags, the bare GET loop over the ids that export asked about, at the same
 * concurrency). Prints each pair and the median ratio ceiling seconds / phase seconds.
 * usage: node bench/operationsVsCeiling.mjs [--calls 20000] [--latency-ms 0] [--runs 3]
 *        [--concurrency 8] [--output-bytes 0] [--cpu-prof DIR] [-- extra export flags]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { runExport } from "./lib/exporter.mjs";
import { operationsCeiling, storedOperationIds } from "./lib/operationsCeiling.mjs";
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
  },
});
const concurrency = Number(values.concurrency);
const sim = await startSim({
  calls: Number(values.calls),
  latencyMs: Number(values["latency-ms"]),
  outputBytes: Number(values["output-bytes"]),
});
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratios = [];
try {
  for (let run = 0; run < Number(values.runs); run++) {
    const dir = await mkdtemp(path.join(tmpdir(), "ops-vs-ceiling-"));
    try {
      const db = path.join(dir, "zoo.duckdb");
      const { summary } = await runExport({
        sim,
        db,
        out: path.join(dir, "parquet"),
        extraArgs: ["--operations-concurrency", String(concurrency), ...positionals],
        cpuProfDir: values["cpu-prof"],
      });
      const ids = await storedOperationIds(db);
      const ceiling = await operationsCeiling({ baseUrl: sim.url, token: sim.token, ids, concurrency });
      const phase = summary.phase_seconds.operations;
      ratios.push(ceiling.seconds / phase);
      console.log(
        JSON.stringify({
          run,
          operations: ids.length,
          phaseSeconds: phase,
          ceilingSeconds: Number(ceiling.seconds.toFixed(3)),
          ratio: Number((ceiling.seconds / phase).toFixed(3)),
          concurrency: summary.operations?.concurrency,
        }),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  console.log(`median ratio ${median(ratios).toFixed(3)} over ${ratios.length} pairs`);
} finally {
  await sim.stop();
}
