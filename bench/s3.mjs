/**
 * The s3:// destination against the local disk: the same cold export (a fresh database each time,
 * `--no-operations` so that the Parquet step is the largest share of the run) to a local --out and
 * to a local S3-compatible server (s3rver, the tests' server, in its own process), alternating
 * which goes first, for several rounds; it prints each round's walls and their ratio, the upload
 * figures of the run summary, and PASS/MISS for the target (median ratio <= 1.3).
 * `npm run build` first; then `node bench/s3.mjs [--calls 200k] [--rounds 3] [--latency 0]`.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { runExport } from "./lib/exporter.mjs";
import { ROOT } from "./lib/paths.mjs";
import { startSim } from "./lib/sim.mjs";

const TARGET = 1.3;
const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "200000" },
    rounds: { type: "string", default: "3" },
    latency: { type: "string", default: "0" },
  },
});
const calls = Number(values.calls.replace(/k$/i, "000"));
const rounds = Number(values.rounds);

async function startS3rver(directory) {
  const child = spawn(
    process.execPath,
    ["--openssl-legacy-provider", path.join(ROOT, "test", "helpers", "s3rverMain.mjs"), directory, "bench"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const [line] = await once(child.stdout, "data");
  return { port: JSON.parse(String(line)).port, stop: () => child.kill("SIGKILL") };
}

const work = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-bench-s3-"));
const sim = await startSim({
  calls,
  latencyMs: Number(values.latency),
  days: Math.max(1, Math.round((calls / 200_000) * 90)),
});
const s3 = await startS3rver(path.join(work, "s3"));
const s3Env = {
  AWS_ACCESS_KEY_ID: "S3RVER",
  AWS_SECRET_ACCESS_KEY: "S3RVER",
  AWS_REGION: "us-east-1",
  AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${s3.port}`,
};
const ratios = [];
const phases = (result) =>
  Object.entries(result.summary.phase_seconds)
    .map(([phase, seconds]) => `${phase} ${seconds.toFixed(1)}`)
    .join(" ");
try {
  console.log(`${calls} calls, --no-operations, ${rounds} rounds; walls in seconds`);
  for (let round = 1; round <= rounds; round++) {
    const run = async (kind) => {
      const db = path.join(work, `${kind}-${round}.duckdb`);
      const out = kind === "local" ? path.join(work, `parquet-${round}`) : `s3://bench/round-${round}`;
      return runExport({
        sim,
        db,
        out,
        extraArgs: ["--no-operations"],
        env: kind === "s3" ? s3Env : {},
      });
    };
    const order = round % 2 === 1 ? ["local", "s3"] : ["s3", "local"];
    const results = {};
    for (const kind of order) results[kind] = await run(kind);
    const ratio = results.s3.wallSeconds / results.local.wallSeconds;
    ratios.push(ratio);
    const upload = results.s3.summary.upload;
    console.log(
      `round ${round} (${order.join(" first, ")}): local ${results.local.wallSeconds.toFixed(1)}  s3 ${results.s3.wallSeconds.toFixed(1)}  ratio ${ratio.toFixed(2)}  ` +
        `upload ${upload.objects} objects, ${(upload.bytes / 1e6).toFixed(1)} MB, ${upload.seconds.toFixed(1)} s; ` +
        `phases local ${phases(results.local)}, s3 ${phases(results.s3)}`,
    );
  }
  const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
  console.log(
    `median ratio ${median.toFixed(2)} (target <= ${TARGET}): ${median <= TARGET ? "PASS" : "MISS"}`,
  );
} finally {
  s3.stop();
  await sim.stop();
  await rm(work, { recursive: true, force: true });
}
