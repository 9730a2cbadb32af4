import type { Env } from "../config/environment.js";
import type { RunLine } from "./runLine.js";
import type { StopSignals } from "./stopSignals.js";

/**
 * What the CLI hands every action: the environment it read, where results are printed, for the
 * commands that write the warehouse the SIGINT/SIGTERM listener started before anything else, and
 * with --json the process's one run line (main prints it if the action ends before it does).
 */
export interface CliIo {
  env: Env;
  stdout: (text: string) => void;
  stop?: StopSignals;
  runLine?: RunLine;
}

/** `--print-config`: the printable config as indented JSON. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(JSON.stringify(value, null, 2));
}
