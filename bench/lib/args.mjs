import { parseArgs } from "node:util";

export const USAGE = `usage: node bench/run.mjs [--quick] [--sizes 200k,1m] [--latencies 0,50] [--out FILE]
                         [--work DIR] [--keep] [--cpu-prof DIR] [--with-operations] [--no-naive]
                         [--same-daily-volume]
  --quick            sizes 20k,100k (a smoke run of a minute or two)
  --sizes            history sizes in calls (k and m suffixes), default 200k,1m
  --latencies        simulated latency per request in ms, default 0,50
  --out              results file, default bench/results/latest.json
  --work DIR         scratch folder (default: a new one under the OS temp dir, removed at the end)
  --keep             keep the scratch folder
  --cpu-prof DIR     run the export children under node --cpu-prof, profiles into DIR
  --with-operations  let the export also fetch async operations (off: the targets are about api calls)
  --no-naive         skip the naive exporter
  --same-daily-volume  history spans 90 days per 200k calls (instead of 90 days for every size), so
                     a nightly run reads the same number of calls at every size`;

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
      "with-operations": { type: "boolean", default: false },
      "no-naive": { type: "boolean", default: false },
      "same-daily-volume": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  const sizes = parseList(values.sizes ?? (values.quick ? "20k,100k" : "200k,1m"), parseCount);
  const latencies = parseList(values.latencies ?? "0,50", (text) => parseCount(text));
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
    withOperations: values["with-operations"],
    naive: !values["no-naive"],
    sameDailyVolume: values["same-daily-volume"],
  };
}
