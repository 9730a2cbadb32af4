import { ExitCode } from "../errors.js";

/**
 * SIGINT and SIGTERM for a command that writes the warehouse (export, demo), listened for from the
 * CLI's first lines: Node's default would end the process by the signal, with no exit code, if one
 * came while the modules load or the config is read.
 *
 * Until the run takes them over (`takeOver`), a signal ends the process at once with 130: nothing
 * is under way that needs finishing (at most the schema is being applied in a transaction, which
 * DuckDB rolls back on the next open). Once taken over, the first signal aborts `signal`, so that
 * requests in flight are abandoned and the run stops after the batch in hand commits; a second
 * ends the process at once.
 */
export interface StopSignals {
  /** Aborted by the first signal after the run took them over. */
  readonly signal: AbortSignal;
  takeOver(run: {
    /** Told the first signal (after `signal` is aborted). */
    first: (name: NodeJS.Signals) => void;
    /** Runs just before a second signal ends the process. */
    beforeForcedExit: () => void;
  }): void;
}

/**
 * Starts listening. `beforeRun` is told a signal that came before the run took over, just before
 * the process ends with 130 (it says so on stderr, and in the --json line).
 */
export function listenForStop(beforeRun: (name: NodeJS.Signals) => void): StopSignals {
  const controller = new AbortController();
  let run: Parameters<StopSignals["takeOver"]>[0] | undefined;
  const onSignal = (name: NodeJS.Signals) => {
    if (run === undefined) {
      beforeRun(name);
      process.exit(ExitCode.interrupted);
    }
    if (controller.signal.aborted) {
      run.beforeForcedExit();
      process.exit(ExitCode.interrupted);
    }
    controller.abort();
    run.first(name);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    takeOver: (handlers) => {
      run = handlers;
    },
  };
}
