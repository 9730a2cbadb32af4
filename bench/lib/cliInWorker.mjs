/**
 * The built CLI run inside a worker thread whose young generation is capped
 * (`resourceLimits.maxYoungGenerationSizeMb`, from YOUNG_GENERATION_MB, 12 by default): the one way
 * a process can give its JavaScript a smaller young generation without a flag at its start. For
 * measuring only: signals, the terminal and the output's flushing are not handled as the CLI's own
 * process handles them. Used as a build of exportsAB.mjs:
 *   node bench/exportsAB.mjs --cli plain=dist/bin/zoo-usage.js --cli worker=bench/lib/cliInWorker.mjs
 */
import { Worker } from "node:worker_threads";
import { CLI } from "./paths.mjs";

const worker = new Worker(CLI, {
  argv: process.argv.slice(2),
  resourceLimits: { maxYoungGenerationSizeMb: Number(process.env.YOUNG_GENERATION_MB ?? 12) },
});
worker.on("exit", (code) => process.exit(code));
worker.on("error", (error) => {
  console.error(error);
  process.exit(1);
});
