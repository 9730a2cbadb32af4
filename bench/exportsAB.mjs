/**
 * Whole exports of several builds side by side: one simulator, then ROUNDS rounds in which each
 * build runs one cold export into a fresh database, in an order that rotates each round. Prints
 * each export's wall time, CPU seconds (user+sys), peak RSS and `phase_seconds`, then the medians
 * per build. For a before/after figure of a change: copy dist/, sql/ and package.json of each
 * build into a folder with a node_modules link, and pass each copy's dist/bin/zoo-usage.js.
 * A build may run with environment variables (`--env LABEL:NAME=VALUE`) or node flags
 * (`--node-arg LABEL:--flag`), for settings only a process start takes.
 * usage: node bench/exportsAB.mjs --cli A=PATH [--cli B=PATH ...] [--calls 200000] [--days 90]
 *        [--latency-ms 0] [--output-bytes 0] [--rounds 3] [--env LABEL:NAME=VALUE]
 *        [--node-arg LABEL:FLAG] [--results FILE] [--about TEXT: what the builds are, for the file]
 *        [-- extra export flags, e.g. --no-operations]
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { runExport } from "./lib/exporter.mjs";
import { median } from "./lib/median.mjs";
import { startSim } from "./lib/sim.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    cli: { type: "string", multiple: true },
    calls: { type: "string", default: "200000" },
    days: { type: "string", default: "90" },
    "latency-ms": { type: "string", default: "0" },
    "output-bytes": { type: "string", default: "0" },
    rounds: { type: "string", default: "3" },
    env: { type: "string", multiple: true, default: [] },
    "node-arg": { type: "string", multiple: true, default: [] },
    results: { type: "string" },
    about: { type: "string" },
  },
});

/** "LABEL:REST" → [LABEL, REST], for the per-build options. */
function perBuild(option, text) {
  const at = text.indexOf(":");
  if (at < 1) throw new Error(`--${option} ${text}: expected LABEL:VALUE`);
  return [text.slice(0, at), text.slice(at + 1)];
}

const builds = (values.cli ?? []).map((text) => {
  const at = text.indexOf("=");
  if (at < 1) throw new Error(`--cli ${text}: expected LABEL=PATH`);
  return { label: text.slice(0, at), cli: path.resolve(text.slice(at + 1)), env: {}, nodeArgs: [] };
});
if (builds.length === 0) throw new Error("give at least one --cli LABEL=PATH");
const byLabel = new Map(builds.map((build) => [build.label, build]));
const buildOf = (option, label) => {
  const build = byLabel.get(label);
  if (build === undefined) throw new Error(`--${option}: no --cli labelled ${label}`);
  return build;
};
for (const text of values.env) {
  const [label, assignment] = perBuild("env", text);
  const at = assignment.indexOf("=");
  buildOf("env", label).env[assignment.slice(0, at)] = assignment.slice(at + 1);
}
for (const text of values["node-arg"]) {
  const [label, flag] = perBuild("node-arg", text);
  buildOf("node-arg", label).nodeArgs.push(flag);
}

const startedAt = new Date().toISOString();
const sim = await startSim({
  calls: Number(values.calls),
  days: Number(values.days),
  latencyMs: Number(values["latency-ms"]),
  outputBytes: Number(values["output-bytes"]),
});
const runs = [];

async function exportOnce(build, round) {
  const dir = await mkdtemp(path.join(tmpdir(), "exports-ab-"));
  try {
    const result = await runExport({
      sim,
      db: path.join(dir, "zoo.duckdb"),
      out: path.join(dir, "parquet"),
      extraArgs: positionals,
      cli: build.cli,
      nodeArgs: build.nodeArgs,
      env: build.env,
    });
    return {
      build: build.label,
      round,
      load: Number(loadavg()[0].toFixed(2)),
      wallSeconds: Number(result.wallSeconds.toFixed(3)),
      cpuSeconds: result.cpuSeconds,
      maxRssMb: result.maxRssMb,
      phaseSeconds: result.summary.phase_seconds,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

try {
  for (let round = 0; round < Number(values.rounds); round++) {
    const shift = round % builds.length;
    for (const build of [...builds.slice(shift), ...builds.slice(0, shift)]) {
      const run = await exportOnce(build, round);
      runs.push(run);
      console.log(JSON.stringify(run));
    }
  }
  const medians = builds.map(({ label }) => {
    const own = runs.filter((run) => run.build === label);
    return {
      build: label,
      wallSeconds: median(own.map((run) => run.wallSeconds)),
      cpuSeconds: median(own.map((run) => run.cpuSeconds ?? 0)),
      maxRssMb: median(own.map((run) => run.maxRssMb ?? 0)),
    };
  });
  for (const line of medians) console.log(`median ${JSON.stringify(line)}`);
  if (values.results !== undefined) {
    const { results: _file, about, ...options } = values;
    const builtWith = builds.map(({ label, cli, env, nodeArgs }) => ({ label, cli, env, nodeArgs }));
    await writeFile(
      values.results,
      `${JSON.stringify({ benchmark: "bench/exportsAB.mjs", about, started_at: startedAt, options, exportArgs: positionals, builds: builtWith, runs, medians }, null, 2)}\n`,
    );
  }
} finally {
  await sim.stop();
}
