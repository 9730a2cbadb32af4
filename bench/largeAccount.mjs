/**
 * A large account: a cold `zoo-usage export` with its default flags (operations included) against a
 * simulator whose user holds many API tokens, its calls spread over all of them (`sim --api-tokens`).
 * Prints the exit code, the wall and CPU time, the peak RSS and what was stored; writes
 * bench/results/large-account.json. `npm run build` first; then
 * `node bench/largeAccount.mjs [--calls 1m] [--tokens 100k] [--latency 0] [--output-bytes 0]`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { DuckDBInstance } from "@duckdb/node-api";
import { runNode } from "./lib/exporter.mjs";
import { CLI, ROOT } from "./lib/paths.mjs";
import { startSim } from "./lib/sim.mjs";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "1m" },
    tokens: { type: "string", default: "100k" },
    latency: { type: "string", default: "0" },
    "output-bytes": { type: "string", default: "0" },
    out: { type: "string" },
  },
});
const count = (text) => Math.round(Number(text.replace(/k$/i, "e3").replace(/m$/i, "e6")));
const calls = count(values.calls);
const tokens = count(values.tokens);
const days = Math.max(1, Math.round((90 * calls) / 200_000));
const load = os.loadavg()[0];
const sim = await startSim({
  calls,
  days,
  latencyMs: Number(values.latency),
  outputBytes: count(values["output-bytes"]),
  apiTokens: tokens,
  now: new Date().toISOString(),
});
const work = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-large-account-"));
let result;
try {
  const db = path.join(work, "zoo_usage.duckdb");
  const run = await runNode(
    [CLI, "export", "--json", "--db", db, "--out", path.join(work, "parquet"), "--no-summary"],
    {
      env: { ZOO_API_TOKEN: sim.token, ZOO_HOST: sim.url, TZ: "UTC" },
    },
  );
  const summary = JSON.parse(run.stdout || "{}");
  console.error(
    `export exit ${run.code}, ${summary.status}, peak RSS ${summary.peak_rss_mb} MB, ${run.wallSeconds.toFixed(1)} s`,
  );
  if (run.code !== 0) console.error(run.stderr.slice(-3000));
  const instance = await DuckDBInstance.create(db, { access_mode: "READ_ONLY" });
  const connection = await instance.connect();
  const stored = (
    await connection.runAndReadAll(
      "SELECT (SELECT count(*) FROM api_calls)::INTEGER, (SELECT count(DISTINCT token_hash) FROM api_calls)::INTEGER, (SELECT count(*) FROM api_tokens)::INTEGER",
    )
  ).getRows()[0];
  connection.closeSync();
  instance.closeSync();
  result = {
    calls,
    tokens,
    days,
    latencyMs: Number(values.latency),
    loadAverageBefore: load,
    loadAverageAfter: os.loadavg()[0],
    exitCode: run.code,
    status: summary.status,
    message: summary.message,
    wallSeconds: run.wallSeconds,
    cpuSeconds: run.cpuSeconds,
    peakRssMb: summary.peak_rss_mb ?? run.maxRssMb,
    phaseSeconds: summary.phase_seconds,
    storedCalls: stored?.[0],
    distinctCallTokens: stored?.[1],
    storedApiTokens: stored?.[2],
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await sim.stop();
  await rm(work, { recursive: true, force: true });
}
const outFile = path.resolve(values.out ?? path.join(ROOT, "bench", "results", "large-account.json"));
await writeFile(outFile, `${JSON.stringify(result, null, 2)}\n`);
