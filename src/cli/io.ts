import type { Env } from "../config/environment.js";

/** What the CLI hands every action: the environment it read, and where results are printed. */
export interface CliIo {
  env: Env;
  stdout: (text: string) => void;
}

/** `--print-config`: the printable config as indented JSON. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(JSON.stringify(value, null, 2));
}
