import type { Env } from "../config/environment.js";
import type { RunLine } from "./runLine.js";
import type { StopSignals } from "./stopSignals.js";

/** Where log lines, progress and errors go: the process's stderr, or a test's buffer. */
export interface ErrorStream {
  write(text: string): unknown;
  /** A terminal a person watches: progress redraws its line in place. */
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
}

/**
 * What the CLI runs with, handed in by whoever runs it (the process, in src/bin/zoo-usage.ts, or a
 * test, in-process): the environment, the two output streams, the clock, and for the commands that
 * write the warehouse how a stop is asked for. Nothing below the CLI reads these from `process`.
 */
export interface MainIo {
  env: Env;
  /** Writes text to stdout as given (results, --json lines, help). */
  writeOut: (text: string) => void;
  stderr: ErrorStream;
  now: () => Date;
  /**
   * Starts listening for a stop (the process: SIGINT and SIGTERM). `beforeRun` is told a stop that
   * came before a run took over, which then ends the command interrupted.
   */
  listenForStop: (beforeRun: (name: NodeJS.Signals) => void) => StopSignals;
}

/**
 * What the CLI hands every action: the environment, where results are printed (a line each), the
 * error stream and the clock; for the commands that write the warehouse the stop listener started
 * before anything else, and with --json the process's one run line (main prints it if the action
 * ends before it does).
 */
export interface CliIo {
  env: Env;
  stdout: (text: string) => void;
  stderr: ErrorStream;
  now: () => Date;
  stop?: StopSignals;
  runLine?: RunLine;
}

/** A log line to the error stream. */
export function stderrLine(io: { stderr: ErrorStream }): (line: string) => void {
  return (line) => io.stderr.write(`${line}\n`);
}

/** `--print-config`: the printable config as indented JSON. */
export function printJson(io: CliIo, value: unknown): void {
  io.stdout(JSON.stringify(value, null, 2));
}
