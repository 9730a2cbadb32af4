/**
 * How much the exporter's own traffic grows a nightly run. The API lists every request it serves as
 * a call of the token's user, so a night's listing holds the previous night's pages and operation
 * fetches. For recording off and on, with the same history: a cold export, then two nights (the
 * simulator's clock one day on each time), reporting each run's requests and records seen and new,
 * and the own calls in the warehouse at the end.
 * `npm run build` first; then `node bench/ownTraffic.mjs [calls]` (default 100000).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { startSimulator } from "../dist/sim/index.js";
import { runExport } from "./lib/exporter.mjs";

const DAY_MS = 86_400_000;
const calls = Number(process.argv[2] ?? 100_000);

async function scenario(recordOwnTraffic) {
  const work = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-own-"));
  const sim = await startSimulator({ seed: 1, calls, days: 90, users: 1, recordOwnTraffic });
  const target = { url: sim.url, token: sim.users[0]?.token };
  const db = path.join(work, "db.duckdb");
  const out = path.join(work, "parquet");
  const runs = [];
  try {
    for (const night of ["cold", "night 1", "night 2"]) {
      if (night !== "cold") sim.clock.advance(DAY_MS);
      const { summary } = await runExport({ sim: target, db, out });
      runs.push({
        night,
        requests: summary.requests,
        operations: summary.operations?.fetched ?? 0,
        records_seen: summary.records_seen,
        records_new: summary.records_new,
      });
    }
    const instance = await DuckDBInstance.create(db, { access_mode: "READ_ONLY" });
    const connection = await instance.connect();
    const reader = await connection.runAndReadAll(
      "SELECT count(*) FILTER (WHERE is_own_call)::INTEGER, count(*)::INTEGER FROM api_calls_enriched",
    );
    const [own, total] = reader.getRows()[0] ?? [];
    connection.closeSync();
    instance.closeSync();
    return { recordOwnTraffic, runs, own_calls_stored: own, calls_stored: total };
  } finally {
    await sim.close();
    await rm(work, { recursive: true, force: true });
  }
}

for (const recording of [false, true]) {
  const result = await scenario(recording);
  console.log(
    `recording ${recording ? "on" : "off"}: ${result.own_calls_stored} own of ${result.calls_stored} calls stored`,
  );
  for (const run of result.runs) {
    console.log(
      `  ${run.night.padEnd(8)} requests ${String(run.requests).padStart(6)} (operations ${String(run.operations).padStart(5)})  records seen ${String(run.records_seen).padStart(7)}  new ${String(run.records_new).padStart(7)}`,
    );
  }
}
