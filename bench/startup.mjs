/**
 * Start-up: how long `zoo-usage --version`, `--help` and `export --help` take as whole processes,
 * beside Node's own start (`node -e ""`), in alternating rounds so that a noisy moment on the
 * machine falls on every command alike. With `--before <commit>` the same commands run, in the
 * same rounds, on that commit built in a temporary clone (its node_modules linked to this one's).
 * Prints the medians and writes bench/results/startup.json.
 * `npm run build` first; then `node bench/startup.mjs [--rounds 15] [--before <commit>]`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { median } from "./lib/median.mjs";
import { CLI, ROOT } from "./lib/paths.mjs";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "15" },
    before: { type: "string" },
    out: { type: "string", default: path.join(ROOT, "bench", "results", "startup.json") },
  },
});
const rounds = Number(values.rounds);
const log = (text) => process.stderr.write(`[startup ${new Date().toISOString().slice(11, 19)}] ${text}\n`);

const COMMANDS = [
  ["--version", ["--version"]],
  ["--help", ["--help"]],
  ["export --help", ["export", "--help"]],
];

/** Builds `commit` in a temporary clone; returns its CLI and a cleanup. */
async function buildBefore(commit) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-startup-before-"));
  log(`building ${commit} in ${dir}`);
  execFileSync("git", ["clone", "--quiet", "--shared", "--no-checkout", ROOT, dir]);
  execFileSync("git", ["-C", dir, "checkout", "--quiet", commit]);
  await symlink(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  execFileSync(path.join(ROOT, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"], { cwd: dir });
  // What users ran at that commit: the bundle once there is one (scripts/bundle.mjs).
  const bundled = existsSync(path.join(dir, "scripts", "bundle.mjs"));
  if (bundled) execFileSync(process.execPath, ["scripts/bundle.mjs"], { cwd: dir });
  return {
    cli: bundled ? path.join(dir, "dist", "bin", "zoo-usage.js") : path.join(dir, "dist", "cli", "main.js"),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Wall time of one process, in ms; fails on a non-zero exit. */
function timed(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0)
    throw new Error(`node ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return ms;
}

const before = values.before === undefined ? undefined : await buildBefore(values.before);
try {
  const subjects = [
    { name: "node -e ''", args: () => ["-e", ""] },
    ...COMMANDS.flatMap(([name, args]) => [
      { name: `${name} (now)`, args: () => [CLI, ...args] },
      ...(before === undefined
        ? []
        : [{ name: `${name} (${values.before})`, args: () => [before.cli, ...args] }]),
    ]),
  ];
  const samples = new Map(subjects.map((subject) => [subject.name, []]));
  // One warm-up of each (the page cache), then the rounds.
  for (const subject of subjects) timed(subject.args());
  for (let round = 0; round < rounds; round++) {
    for (const subject of subjects) samples.get(subject.name).push(timed(subject.args()));
  }
  const rows = subjects.map((subject) => {
    const ms = samples.get(subject.name);
    return { name: subject.name, median_ms: Math.round(median(ms)), min_ms: Math.round(Math.min(...ms)), ms };
  });
  const width = Math.max(...rows.map((row) => row.name.length));
  process.stdout.write(`${"command".padEnd(width)}  median ms  min ms\n`);
  for (const row of rows) {
    process.stdout.write(
      `${row.name.padEnd(width)}  ${String(row.median_ms).padStart(9)}  ${String(row.min_ms).padStart(6)}\n`,
    );
  }
  await writeFile(
    values.out,
    `${JSON.stringify({ at: new Date().toISOString(), rounds, loadavg: os.loadavg(), before: values.before ?? null, rows }, null, 2)}\n`,
  );
  log(`wrote ${values.out}`);
} finally {
  await before?.cleanup();
}
