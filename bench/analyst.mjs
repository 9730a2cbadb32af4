/**
 * The analyst's side of the warehouse (issue 48): for each history size, on a warehouse made once
 * and cached (a real `zoo-usage export --no-operations` of the simulator for sizes up to
 * --generate-above, a generated multiple of the largest of those above it: lib/analystWarehouse.mjs),
 *   1. `zoo-usage report` (text to /dev/null): wall, CPU-s, peak RSS, median of --rounds cold processes;
 *   2. `zoo-usage check` with a budget and a spike rule (--all: nothing recorded, the warehouse stays
 *      as it was; --now the day after the last call), the same figures;
 *   3. every view of the `main` schema as `SELECT count(*) FROM (SELECT * FROM view)`, and the plain
 *      scan of api_calls they are compared with, in one DuckDB process (lib/viewTimes.mjs);
 * then the ratios the targets are judged on. With --baseline, another build's report and
 * check run beside this one's, alternating, each on its own warehouse exported from the same
 * simulator (same seed, same clock). `npm run build` first; see bench/README.md.
 */
import { mkdir, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { readThrough, warehouseFacts, warehouseFor } from "./lib/analystWarehouse.mjs";
import { callsLabel } from "./lib/callsLabel.mjs";
import { runNode } from "./lib/exporter.mjs";
import { machineFacts } from "./lib/machine.mjs";
import { median } from "./lib/median.mjs";
import { CLI, ROOT } from "./lib/paths.mjs";

const USAGE = `usage: node bench/analyst.mjs [--quick] [--sizes 100k,1m,10m] [--rounds 3] [--baseline PATH]
                             [--generate-above 1m] [--cache DIR] [--out FILE] [--no-views]
  --quick             sizes 10k,100k
  --sizes             history sizes in calls (k and m suffixes), default 100k,1m,10m
  --rounds N          cold processes of report and of check per build and size (median), default 3
  --baseline PATH     another build's dist/bin/zoo-usage.js: its report and check beside this one's,
                      alternating, each build on a warehouse it exported itself from the same simulator
  --generate-above N  sizes above N are generated from the warehouse of the largest size up to N
                      (calls multiplied by SQL, see bench/README.md), default 1m
  --cache DIR         where warehouses are kept between runs, default bench/.cache/analyst
  --out FILE          results file, default bench/results/analyst.json
  --no-views          report and check alone
  --days N            days of history of an exported warehouse, default 91
  --seed N            the simulator's seed, default 1
  --sim-now ISO       the simulator's clock (the end of the history), default 2026-11-20T06:00:00Z
  --budget USD        check's budget rule, default 500
  --spike-factor X    check's spike rule, default 4`;

function parseCount(text) {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (!match) throw new Error(`not a count: ${text}`);
  return Math.round(Number(match[1]) * { "": 1, k: 1_000, m: 1_000_000 }[match[2].toLowerCase()]);
}

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    sizes: { type: "string" },
    rounds: { type: "string", default: "3" },
    baseline: { type: "string" },
    "generate-above": { type: "string", default: "1m" },
    cache: { type: "string" },
    out: { type: "string" },
    "no-views": { type: "boolean", default: false },
    days: { type: "string", default: "91" },
    seed: { type: "string", default: "1" },
    "sim-now": { type: "string", default: "2026-11-20T06:00:00Z" },
    budget: { type: "string", default: "500" },
    "spike-factor": { type: "string", default: "4" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const sizes = [
  ...new Set((values.sizes ?? (values.quick ? "10k,100k" : "100k,1m,10m")).split(",").map(parseCount)),
].sort((a, b) => a - b);
const rounds = Number(values.rounds);
const generateAbove = parseCount(values["generate-above"]);
const cacheDir = path.resolve(values.cache ?? path.join(ROOT, "bench", ".cache", "analyst"));
const outFile = path.resolve(values.out ?? path.join(ROOT, "bench", "results", "analyst.json"));
const shape = { days: Number(values.days), seed: Number(values.seed), simNow: values["sim-now"] };
const builds = [{ label: "this", cli: CLI }];
if (values.baseline !== undefined) builds.push({ label: "baseline", cli: path.resolve(values.baseline) });

const log = (text) => process.stderr.write(`[analyst ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
const startedAt = new Date();
const startLoad = os.loadavg()[0];

/** One cold process of a command of a build on a warehouse: wall, CPU-s, peak RSS, load average. */
async function measure(build, command, db, facts) {
  const args =
    command === "report"
      ? [build.cli, "report", "--db", db]
      : [
          build.cli,
          "check",
          "--db",
          db,
          "--budget",
          values.budget,
          "--spike-factor",
          values["spike-factor"],
          "--all",
          "--now",
          facts.day_after_last,
        ];
  const load = os.loadavg()[0];
  const run = await runNode(args, { env: { TZ: "UTC" }, discardStdout: true });
  // check exits 1 when an alert fires; anything else is a failure.
  if (run.code !== 0 && !(command === "check" && run.code === 1)) {
    throw new Error(`${build.label} ${command} exited ${run.code}:\n${run.stderr.slice(-3000)}`);
  }
  return {
    seconds: Number(run.wallSeconds.toFixed(3)),
    cpuSeconds: run.cpuSeconds === null ? null : Number(run.cpuSeconds.toFixed(2)),
    peakRssMb: run.maxRssMb,
    exitCode: run.code,
    load: Number(load.toFixed(2)),
  };
}

function summary(runs) {
  const of = (key) => median(runs.map((run) => run[key] ?? 0));
  return {
    seconds: of("seconds"),
    cpuSeconds: of("cpuSeconds"),
    peakRssMb: of("peakRssMb"),
    secondsRange: [Math.min(...runs.map((r) => r.seconds)), Math.max(...runs.map((r) => r.seconds))],
    runs,
  };
}

async function viewTimes(db) {
  const run = await runNode([path.join(ROOT, "bench", "lib", "viewTimes.mjs"), db]);
  if (run.code !== 0) throw new Error(`viewTimes exited ${run.code}:\n${run.stderr.slice(-3000)}`);
  return { ...JSON.parse(run.stdout), wallSeconds: run.wallSeconds, peakRssMb: run.maxRssMb };
}

/** Writes the results file: after every size (a long run keeps what it measured), and at the end. */
async function save(extra = {}) {
  const result = {
    benchmark: "the analyst's side: report, check and views (bench/analyst.mjs)",
    started_at: startedAt.toISOString(),
    finished_at: new Date().toISOString(),
    machine: machineFacts(startLoad),
    options: {
      sizes,
      rounds,
      generate_above: generateAbove,
      ...shape,
      check_rules: { budget: values.budget, spike_factor: values["spike-factor"] },
      builds,
    },
    results,
    ...extra,
  };
  await mkdir(path.dirname(outFile), { recursive: true });
  await writeFile(outFile, `${JSON.stringify(result, null, 2)}\n`);
}

const results = [];
for (const size of sizes) {
  const label = callsLabel(size);
  const cell = { size, label, builds: {} };
  const warehouses = [];
  for (const build of builds) {
    const started = performance.now();
    const warehouse = await warehouseFor({
      cli: build.cli,
      size,
      sizes,
      generateAbove,
      shape,
      cacheDir,
      log,
    });
    const facts = await warehouseFacts(warehouse.db);
    const { dir: _dir, ...made } = warehouse;
    cell.builds[build.label] = {
      warehouse: { ...made, db: path.relative(ROOT, warehouse.db), ...facts },
      readySeconds: (performance.now() - started) / 1000,
    };
    warehouses.push({ build, db: warehouse.db, facts });
  }
  const facts = warehouses[0].facts;
  log(`${label}: ${facts.calls} calls over ${facts.days} days; warming the OS cache`);
  for (const { db } of warehouses) await readThrough(db);
  const runs = new Map(warehouses.map(({ build }) => [build.label, { report: [], check: [] }]));
  for (let round = 0; round < rounds; round++) {
    const shift = round % warehouses.length;
    const order = [...warehouses.slice(shift), ...warehouses.slice(0, shift)];
    for (const command of ["report", "check"]) {
      for (const { build, db, facts: own } of order) {
        const run = await measure(build, command, db, own);
        runs.get(build.label)[command].push({ round, ...run });
        log(
          `${label} ${build.label} ${command}: ${run.seconds} s, ${run.cpuSeconds} CPU-s, ${run.peakRssMb} MB`,
        );
      }
    }
  }
  for (const { build, db } of warehouses) {
    const own = cell.builds[build.label];
    own.report = summary(runs.get(build.label).report);
    own.check = summary(runs.get(build.label).check);
    if (!values["no-views"]) {
      log(`${label} ${build.label}: views`);
      own.views = await viewTimes(db);
    }
  }
  results.push(cell);
  await save({ finished: false });
}

// ---- the printout -------------------------------------------------------------------------------
const fmt = (value, digits = 2) => (value === null || value === undefined ? "-" : value.toFixed(digits));
const lines = [];
const pad = (cells, widths) =>
  cells.map((c, i) => String(c)[i === 0 ? "padEnd" : "padStart"](widths[i])).join("  ");
const widths = [6, 9, 11, 6, 20, 8, 8, 20, 8, 8];
lines.push(
  pad(
    [
      "calls",
      "build",
      "days",
      "report s (min-max)",
      "CPU s",
      "RSS MB",
      "check s (min-max)",
      "CPU s",
      "RSS MB",
    ],
    widths,
  ),
);
for (const cell of results) {
  for (const [buildLabel, own] of Object.entries(cell.builds)) {
    const range = (s) => `${fmt(s.seconds)} (${fmt(s.secondsRange[0])}-${fmt(s.secondsRange[1])})`;
    lines.push(
      pad(
        [
          cell.label,
          buildLabel,
          own.warehouse.calls,
          own.warehouse.days,
          range(own.report),
          fmt(own.report.cpuSeconds, 1),
          own.report.peakRssMb,
          range(own.check),
          fmt(own.check.cpuSeconds, 1),
          own.check.peakRssMb,
        ],
        widths,
      ),
    );
  }
}
const ratios = [];
lines.push("", "ratios");
for (let i = 1; i < results.length; i++) {
  const [small, big] = [results[i - 1], results[i]];
  for (const buildLabel of Object.keys(big.builds)) {
    const r = big.builds[buildLabel].report.seconds / small.builds[buildLabel].report.seconds;
    const c = big.builds[buildLabel].check.seconds / small.builds[buildLabel].check.seconds;
    ratios.push({ kind: "size", build: buildLabel, from: small.label, to: big.label, report: r, check: c });
    lines.push(`  ${buildLabel}: report ${big.label} / ${small.label} ${fmt(r)}, check ${fmt(c)}`);
  }
}
if (builds.length > 1) {
  for (const cell of results) {
    const [a, b] = [cell.builds.this, cell.builds.baseline];
    const entry = { kind: "baseline", size: cell.label };
    for (const command of ["report", "check"]) {
      entry[command] = {
        seconds: a[command].seconds / b[command].seconds,
        cpuSeconds: a[command].cpuSeconds / b[command].cpuSeconds,
        peakRssMb: a[command].peakRssMb / b[command].peakRssMb,
      };
    }
    ratios.push(entry);
    lines.push(
      `  ${cell.label} this / baseline: report wall ${fmt(entry.report.seconds)}, CPU ${fmt(entry.report.cpuSeconds)}, RSS ${fmt(entry.report.peakRssMb)}; check wall ${fmt(entry.check.seconds)}, CPU ${fmt(entry.check.cpuSeconds)}, RSS ${fmt(entry.check.peakRssMb)}`,
    );
  }
}

if (!values["no-views"]) {
  for (const buildLabel of Object.keys(results[0].builds)) {
    const withViews = results.filter((cell) => cell.builds[buildLabel].views);
    const last = withViews.at(-1).builds[buildLabel].views;
    const names = [...last.views].sort((x, y) => y.seconds - x.seconds).map((v) => v.view);
    lines.push(
      "",
      `views (${buildLabel}): seconds of count(*) over the view, second run (x the plain scan of api_calls)`,
    );
    const vw = [32, ...withViews.map(() => 22)];
    lines.push(pad(["view", ...withViews.map((cell) => cell.label)], vw));
    const scanRow = withViews.map(
      (cell) => `${fmt(cell.builds[buildLabel].views.reference.seconds * 1000, 1)} ms`,
    );
    lines.push(pad(["(plain scan of api_calls)", ...scanRow], vw));
    for (const name of names) {
      lines.push(
        pad(
          [
            name,
            ...withViews.map((cell) => {
              const { views, reference } = cell.builds[buildLabel].views;
              const view = views.find((v) => v.view === name);
              if (view === undefined) return "-";
              const rollup =
                view.rollupSeconds === null ? "" : `, ${fmt(view.seconds / view.rollupSeconds, 1)}xR`;
              return `${fmt(view.seconds, 3)} (${fmt(view.seconds / reference.seconds, 0)}x${rollup})`;
            }),
          ],
          vw,
        ),
      );
    }
    const rollups = last.rollups ?? [];
    lines.push(
      rollups.length === 0
        ? "  no rollup table in this warehouse (a schema or table named *rollup* or *grains*): the views' own yardstick, a count(*) over their rollup, is not printed"
        : `  xR: the view / count(*) over the rollup tables its text names (${rollups.map((r) => r.name).join(", ")})`,
    );
  }
}

// The targets of issue 48, where this run has the figures.
const targets = [];
const find = (calls) => results.find((cell) => cell.size === calls)?.builds.this;
const [at100k, at1m, at10m] = [find(100_000), find(1_000_000), find(10_000_000)];
const target = (name, value, limit, unit = "") =>
  targets.push({
    name,
    value,
    limit,
    pass: value <= limit,
    text: `${name}: ${fmt(value, unit === " MB" ? 0 : 2)}${unit} (at most ${limit}${unit})`,
  });
if (at1m && results.find((c) => c.size === 1_000_000).builds.baseline) {
  const base = results.find((c) => c.size === 1_000_000).builds.baseline;
  target("report at 1M / the baseline's", at1m.report.seconds / base.report.seconds, 0.3);
}
if (at1m && at100k) target("report at 1M / its own at 100k", at1m.report.seconds / at100k.report.seconds, 2);
if (at1m?.views) {
  const rolled = at1m.views.views.filter((v) => v.rollupSeconds !== null);
  if (rolled.length > 0) {
    const worst = rolled.reduce((x, y) =>
      x.seconds / x.rollupSeconds > y.seconds / y.rollupSeconds ? x : y,
    );
    target(
      `worst view at 1M / count(*) over its rollup (${worst.view})`,
      worst.seconds / worst.rollupSeconds,
      5,
    );
  }
  const slowest = at1m.views.views.reduce((x, y) => (x.seconds > y.seconds ? x : y));
  target(`slowest view at 1M (${slowest.view})`, slowest.seconds, 0.3, " s");
}
if (at10m && at1m) target("report at 10M / at 1M", at10m.report.seconds / at1m.report.seconds, 3);
if (at10m) {
  target("peak RSS of report at 10M", at10m.report.peakRssMb, 400, " MB");
  target("peak RSS of check at 10M", at10m.check.peakRssMb, 400, " MB");
}
if (targets.length > 0) {
  lines.push("", "targets of issue 48");
  for (const t of targets) lines.push(`  ${t.pass ? "met    " : "NOT met"}  ${t.text}`);
}

await save({ ratios, targets });
console.log(lines.join("\n"));
console.log(`\nresults: ${path.relative(process.cwd(), outFile)}`);
