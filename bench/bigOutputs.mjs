/**
 * Peak memory of an export whose operations return big output files: the simulator serves every
 * completed conversion and text-to-CAD job with a first output file of `--output-bytes` (default
 * 20 MB), and one cold export (the built CLI, in its own process) fetches them all. Prints the
 * operations with outputs, their total size and the export's peak RSS (GNU time, and the run
 * summary's peak_rss_mb when it has one).
 * `npm run build` first; then `node bench/bigOutputs.mjs [calls] [outputBytes]` (default 45, 20000000).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { startSimulator } from "../dist/sim/index.js";
import { runExport } from "./lib/exporter.mjs";

const calls = Number(process.argv[2] ?? 45);
const outputBytes = Number(process.argv[3] ?? 20_000_000);

const work = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-big-"));
const sim = await startSimulator({ seed: 3, calls, days: 2, users: 1, outputBytes });
try {
  const db = path.join(work, "db.duckdb");
  const run = await runExport({
    sim: { url: sim.url, token: sim.users[0]?.token },
    db,
    out: path.join(work, "parquet"),
  });
  const instance = await DuckDBInstance.create(db, { access_mode: "READ_ONLY" });
  const connection = await instance.connect();
  const reader = await connection.runAndReadAll(
    "SELECT count(*)::INTEGER, coalesce(sum(output_bytes), 0)::BIGINT FROM async_operations WHERE output_count > 0",
  );
  const [operations, bytes] = reader.getRows()[0] ?? [];
  connection.closeSync();
  instance.closeSync();
  console.log(
    `operations with outputs ${operations}, output bytes ${Number(bytes).toLocaleString("en")}, ` +
      `operations fetched ${run.summary.operations?.fetched}, peak RSS ${run.maxRssMb} MB` +
      (run.summary.peak_rss_mb === undefined ? "" : ` (summary peak_rss_mb ${run.summary.peak_rss_mb})`) +
      `, wall ${run.wallSeconds.toFixed(1)} s`,
  );
} finally {
  await sim.close();
  await rm(work, { recursive: true, force: true });
}
