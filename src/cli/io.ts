import type { Env } from "../config/environment.js";
import type { StopSignals } from "./stopSignals.js";

/**
 * What the CLI hands every action: the environment it read, where results are printed, and for the
 * commands that write the warehouse, the SIGINT/SIGTERM listener started before anything else.
 */
export interface CliIo {
  env: Env;
  stdout: (text: string) => void;
  stop?: StopSignals;
}

/** `--print-config`: the printable config as indented JSON. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(JSON.stringify(value, null, 2));
}
