/**
 * One `zoo-usage export` against a fresh simulator, its RSS sampled every 100 ms: prints the phases'
 * seconds, the peak and when it came, and the highest sample of each second, to see which phase
 * sets the peak. Extra arguments go to the export; NODE_OPTIONS and other variables pass through.
 * usage: node bench/rssTimeline.mjs CALLS DAYS LATENCY_MS OUTPUT_BYTES [-- export flags]
 *   e.g. node bench/rssTimeline.mjs 200000 90 50 2000000 --operations-window 10d
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { CLI } from "./lib/paths.mjs";
import { startSim } from "./lib/sim.mjs";

const [calls, days, latencyMs, outputBytes, ...extra] = process.argv.slice(2).filter((arg) => arg !== "--");
if (outputBytes === undefined) {
  console.error("usage: node bench/rssTimeline.mjs CALLS DAYS LATENCY_MS OUTPUT_BYTES [-- export flags]");
  process.exit(2);
}
// The simulator's clock is the machine's, so that the export's operations window covers the history.
const sim = await startSim({
  calls: Number(calls),
  days: Number(days),
  latencyMs: Number(latencyMs),
  outputBytes: Number(outputBytes),
  now: new Date().toISOString(),
});
const dir = await mkdtemp(path.join(tmpdir(), "rss-timeline-"));
try {
  const args = ["export", "--json", "--db", path.join(dir, "zoo.duckdb"), "--out", path.join(dir, "parquet")];
  const child = spawn(process.execPath, [CLI, ...args, "--no-summary", ...extra], {
    env: { ...process.env, ZOO_API_TOKEN: sim.token, ZOO_HOST: sim.url, TZ: "UTC" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    stdout += chunk;
  });
  const started = performance.now();
  const samples = [];
  const timer = setInterval(async () => {
    const status = await readFile(`/proc/${child.pid}/status`, "utf8").catch(() => "");
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
    if (kb !== undefined) samples.push([(performance.now() - started) / 1000, Number(kb) / 1024]);
  }, 100);
  const code = await new Promise((resolve) => child.once("exit", resolve));
  clearInterval(timer);
  const summary = JSON.parse(stdout);
  const peak = samples.reduce((best, sample) => (sample[1] > best[1] ? sample : best), [0, 0]);
  const perSecond = new Map();
  for (const [at, mb] of samples)
    perSecond.set(Math.floor(at), Math.max(perSecond.get(Math.floor(at)) ?? 0, mb));
  console.log(`exit ${code}; phases ${JSON.stringify(summary.phase_seconds)}`);
  console.log(
    `operations ${summary.operations?.fetched ?? 0}, concurrency ${JSON.stringify(summary.operations?.concurrency)}`,
  );
  console.log(
    `peak RSS ${peak[1].toFixed(0)} MB at ${peak[0].toFixed(1)} s of ${(samples.at(-1)?.[0] ?? 0).toFixed(1)} s`,
  );
  console.log([...perSecond].map(([second, mb]) => `${second}:${mb.toFixed(0)}`).join(" "));
} finally {
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
}
