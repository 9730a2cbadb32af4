import { parseArgs } from "node:util";

export const USAGE = `usage: node bench/run.mjs [--quick] [--sizes 200k,1m] [--latencies 50] [--out FILE]
                         [--work DIR] [--keep] [--cpu-prof DIR] [--no-operations]
                         [--fixed-history] [--output-bytes 2m] [--operations-concurrency 32]
                         [--operations-window-days 35] [--limit 10000]
  --quick            sizes 10k,20k (a smoke run of about ten minutes)
  --sizes            history sizes in calls (k and m suffixes), default 200k,1m
  --latencies        simulated latency per request in ms, default 50 (a network's round trip)
  --out              results file, default bench/results/latest.json
  --work DIR         scratch folder (default: a new one under the OS temp dir, removed at the end)
  --keep             keep the scratch folder
  --cpu-prof DIR     run the export children under node --cpu-prof, profiles into DIR
  --no-operations    list-only rows alone: skip the exports with default flags (which fetch operations)
  --fixed-history    90 days of history at every size (default: as many calls in the last
                     --operations-window-days as 200k calls over 90 days, so that a nightly run
                     has the same work at every size: 581 days for 1M calls)
  --output-bytes N   size of the first output file of every completed conversion and text-to-CAD
                     job the simulator serves (k and m suffixes; 0: its small stand-ins), default 2m
  --operations-concurrency N  most operations in flight, for the export and its ceiling alike, default 32 (the export's default)
  --operations-window-days N  the export's default operations window, for its ceiling, default 35
  --limit N          page size of the list requests (export and ceilings), default 10000 (the export's)`;

function parseCount(text) {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (!match) throw new Error(`not a count: ${text}`);
  const scale = { "": 1, k: 1_000, m: 1_000_000 }[match[2].toLowerCase()];
  return Math.round(Number(match[1]) * scale);
}

function parseList(text, parse) {
  return text
    .split(",")
    .filter((part) => part.trim() !== "")
    .map(parse);
}

export function parseBenchArgs(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean", default: false },
      sizes: { type: "string" },
      latencies: { type: "string" },
      out: { type: "string" },
      work: { type: "string" },
      keep: { type: "boolean", default: false },
      "cpu-prof": { type: "string" },
      "no-operations": { type: "boolean", default: false },
      "fixed-history": { type: "boolean", default: false },
      "output-bytes": { type: "string", default: "2m" },
      "operations-concurrency": { type: "string", default: "32" },
      "operations-window-days": { type: "string", default: "35" },
      limit: { type: "string", default: "10000" },
      help: { type: "boolean", default: false },
    },
  });
  const sizes = parseList(values.sizes ?? (values.quick ? "10k,20k" : "200k,1m"), parseCount);
  const latencies = parseList(values.latencies ?? "50", (text) => parseCount(text));
  if (sizes.length === 0 || latencies.length === 0) throw new Error("--sizes and --latencies need values");
  return {
    help: values.help,
    quick: values.quick,
    sizes: [...new Set(sizes)].sort((a, b) => a - b),
    latencies: [...new Set(latencies)].sort((a, b) => a - b),
    out: values.out,
    work: values.work,
    keep: values.keep,
    cpuProfDir: values["cpu-prof"],
    operations: !values["no-operations"],
    sameDailyVolume: !values["fixed-history"],
    outputBytes: parseCount(values["output-bytes"]),
    operationsConcurrency: parseCount(values["operations-concurrency"]),
    operationsWindowDays: parseCount(values["operations-window-days"]),
    limit: parseCount(values.limit),
  };
}
