import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { CLI, ROOT } from "./paths.mjs";

const TIME = "/usr/bin/time";
const HAS_TIME = existsSync(TIME);

/**
 * Runs a node script as a child; resolves with its stdout, stderr, exit code, wall time and, where
 * GNU time is installed, the child's CPU seconds and peak RSS (so a noisy machine shows in the data).
 * `discardStdout`: the child's stdout goes to /dev/null (stdout is then "").
 */
export function runNode(args, { env = {}, nodeArgs = [], discardStdout = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const command = HAS_TIME ? TIME : process.execPath;
    const commandArgs = [...nodeArgs, ...args];
    if (HAS_TIME) commandArgs.unshift("-f", "BENCH_TIME %e %U %S %M", process.execPath);
    const child = spawn(command, commandArgs, {
      env: { ...process.env, ...env },
      stdio: ["ignore", discardStdout ? "ignore" : "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
    });
    child.once("error", reject);
    child.once("exit", (code) => {
      const time = /BENCH_TIME (\S+) (\S+) (\S+) (\d+)\s*$/.exec(stderr);
      resolve({
        code,
        stdout,
        stderr,
        wallSeconds: (performance.now() - started) / 1000,
        cpuSeconds: time ? Number(time[2]) + Number(time[3]) : null,
        maxRssMb: time ? Math.round(Number(time[4]) / 1024) : null,
      });
    });
  });
}

/**
 * One `zoo-usage export` as a user runs it: the built CLI in its own process, token and host from
 * the environment. Wall time is measured around the whole process (start-up and close included).
 * `cli` runs another build instead (a copy of dist/ from an earlier commit, to compare side by side);
 * `nodeArgs` go to node before the script (e.g. `--import` of a bench hook, whose stderr is returned).
 */
export async function runExport({
  sim,
  db,
  out,
  extraArgs = [],
  cpuProfDir,
  cli = CLI,
  nodeArgs: extraNodeArgs = [],
  env = {},
}) {
  const nodeArgs = [
    ...(cpuProfDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", cpuProfDir]),
    ...extraNodeArgs,
  ];
  const result = await runNode(
    [cli, "export", "--json", "--db", db, "--out", out, "--no-summary", ...extraArgs],
    { env: { ZOO_API_TOKEN: sim.token, ZOO_HOST: sim.url, TZ: "UTC", ...env }, nodeArgs },
  );
  let summary;
  try {
    summary = JSON.parse(result.stdout);
  } catch {
    throw new Error(`export exited ${result.code} without a JSON summary:\n${result.stderr.slice(-4000)}`);
  }
  if (result.code !== 0) {
    throw new Error(`export exited ${result.code} (${summary.status}): ${summary.message ?? ""}`);
  }
  return {
    summary,
    stderr: result.stderr,
    wallSeconds: result.wallSeconds,
    cpuSeconds: result.cpuSeconds,
    maxRssMb: result.maxRssMb,
  };
}

/**
 * The fetch ceiling as a process, timed like the export (Node's start and module loading counted on
 * both sides): `node bench/lib/fetchAll.mjs`.
 */
export async function fetchCeilingProcess(sim, limit) {
  const run = await runNode([path.join(ROOT, "bench", "lib", "fetchAll.mjs"), sim.url, String(limit)], {
    env: { BENCH_TOKEN: sim.token },
  });
  if (run.code !== 0) throw new Error(`fetch ceiling exited ${run.code}:\n${run.stderr.slice(-4000)}`);
  const figures = JSON.parse(run.stdout);
  return {
    seconds: run.wallSeconds,
    innerSeconds: figures.seconds,
    requests: figures.requests,
    bodyBytes: figures.bodyBytes,
    cpuSeconds: run.cpuSeconds,
  };
}

export async function directoryBytes(dir) {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(path.join(entry.parentPath ?? entry.path, entry.name))).size;
  }
  return total;
}

/**
 * What a nightly run should cost, from the database it left: k new calls (first seen by it) and w
 * calls of the lookback window before it (created within `lookbackMs` of the cold run's newest
 * call). docs/how-a-run-works.md: about ceil((k + w) / limit) + 2 list requests.
 */
export async function nightlyExpectation(db, { coldRunId, nightlyRunId, lookbackMs, limit }) {
  const instance = await DuckDBInstance.create(db, { access_mode: "READ_ONLY" });
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      `WITH hw AS (SELECT max(created_at) AS t FROM api_calls WHERE first_seen_run_id = $cold)
       SELECT
         count(*) FILTER (WHERE first_seen_run_id = $nightly)::INTEGER,
         count(*) FILTER (WHERE first_seen_run_id = $cold
                          AND created_at >= (SELECT t FROM hw) - to_milliseconds($lookback::BIGINT))::INTEGER,
         count(*)::INTEGER
       FROM api_calls`,
      { cold: coldRunId, nightly: nightlyRunId, lookback: lookbackMs },
    );
    const [newCalls, windowCalls, total] = reader.getRows()[0];
    return {
      newCalls,
      windowCalls,
      totalCalls: total,
      bound: Math.ceil((newCalls + windowCalls) / limit) + 2,
    };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}
