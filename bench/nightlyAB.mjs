// Nightly exports of two or more builds side by side: one simulator (50 ms a request), each build's
// cold export into its own database, then NIGHTS nights in which the simulator's clock moves a day
// and every build runs its nightly export, in an order that alternates each night. Prints each
// nightly run and the medians of wall, CPU and peak RSS per build, and the first build's wall over
// the second's: the figure of a change to what a nightly run keeps (issue 48: at most 1.1).
// usage: node bench/nightlyAB.mjs --calls 200000 --nights 6 A=PATH B=PATH [-- extra export flags]
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runExport } from "./lib/exporter.mjs";
import { median } from "./lib/median.mjs";
import { startSim } from "./lib/sim.mjs";

const argv = process.argv.slice(2);
const dashes = argv.indexOf("--");
const own = dashes === -1 ? argv : argv.slice(0, dashes);
const extra = dashes === -1 ? ["--no-operations"] : argv.slice(dashes + 1);
const option = (name, fallback) => {
  const at = own.indexOf(name);
  return at === -1 ? fallback : Number(own[at + 1]);
};
const calls = option("--calls", 200_000);
const nights = option("--nights", 6);
const builds = own
  .filter((arg) => /^[A-Za-z]\w*=/.test(arg))
  .map((arg) => ({ label: arg.slice(0, arg.indexOf("=")), cli: arg.slice(arg.indexOf("=") + 1), runs: [] }));
if (builds.length < 2) throw new Error("give two builds: A=path/to/dist/bin/zoo-usage.js B=...");

const sim = await startSim({ calls, latencyMs: 50, now: "2026-11-20T06:00:00Z" });
const dir = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-nightly-ab-"));
try {
  for (const build of builds) {
    build.db = path.join(dir, `${build.label}.duckdb`);
    build.out = path.join(dir, `${build.label}-parquet`);
    const cold = await runExport({ sim, db: build.db, out: build.out, cli: build.cli, extraArgs: extra });
    console.log(`${build.label} cold: ${cold.wallSeconds.toFixed(2)} s`);
  }
  for (let night = 1; night <= nights; night++) {
    await sim.advanceClock(86_400_000);
    for (const build of night % 2 === 1 ? builds : [...builds].reverse()) {
      const run = await runExport({ sim, db: build.db, out: build.out, cli: build.cli, extraArgs: extra });
      build.runs.push(run);
      console.log(
        `night ${night} ${build.label}: ${run.wallSeconds.toFixed(2)} s, ${run.cpuSeconds?.toFixed(2)} CPU-s, ${run.maxRssMb} MB, ${run.summary.records_new} new calls`,
      );
    }
  }
  const medians = builds.map((build) => ({
    label: build.label,
    wall: median(build.runs.map((run) => run.wallSeconds)),
    cpu: median(build.runs.map((run) => run.cpuSeconds)),
    rss: median(build.runs.map((run) => run.maxRssMb)),
  }));
  for (const m of medians)
    console.log(`${m.label}: median ${m.wall.toFixed(3)} s, ${m.cpu?.toFixed(3)} CPU-s, ${m.rss} MB`);
  const [first, second] = medians;
  console.log(`${first.label} / ${second.label}: wall ${(first.wall / second.wall).toFixed(3)}`);
} finally {
  await sim.stop();
  await rm(dir, { recursive: true, force: true });
}
