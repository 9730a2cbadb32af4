import type { Command } from "commander";
import { ExitCode, type ExitCodeValue, ZooUsageError } from "../errors.js";
import { formatLogLine, type LogFormat } from "../log/logger.js";
import { commandNamed, commandPath, flagErrorHint, helpHolds, withTokenNote } from "./flagError.js";
import type { CliIo, MainIo } from "./io.js";
import { reportError } from "./reportError.js";
import { RunLine } from "./runLine.js";

/**
 * The switchboard: builds the commander program, runs the command the arguments name, and returns
 * the exit code it ended with. It runs with what `io` hands it (the process's streams, environment
 * and signals in src/bin/zoo-usage.ts; a test's, in-process) and reads nothing from `process`; the
 * actions hand the run's clock down. A command that writes the warehouse listens for a stop before
 * the program (and DuckDB) is loaded, so that a stop at any point of its start-up ends it
 * interrupted (130); `sim` listens too, and closes at the first stop. `argv` is as process.argv gives it: the node binary and the script first.
 */
export async function main(argv: string[], io: MainIo): Promise<ExitCodeValue> {
  const stdout = (text: string) => io.writeOut(`${text}\n`);
  const writeErr = (text: string) => io.stderr.write(text);
  let logFormat: LogFormat = logFormatInArgv(argv);
  // One run line for the whole command, made before commander parses: its errors come before any
  // action, and whichever part of the CLI meets the outcome first prints it.
  const runLine = asksForRunLine(argv) ? new RunLine(stdout, io.env) : undefined;
  const stop = listensForStop(argv)
    ? io.listenForStop((name) => {
        if (writesWarehouse(argv)) stoppedAtStart(name, { logFormat, runLine, writeErr, now: io.now });
      })
    : undefined;
  const { buildProgram } = await import("./program.js");
  const cliIo: CliIo = {
    env: io.env,
    stdout,
    stderr: io.stderr,
    now: io.now,
    ...(stop === undefined ? {} : { stop }),
    ...(runLine === undefined ? {} : { runLine }),
  };
  let exitCode: ExitCodeValue = ExitCode.ok;
  let debug = argv.includes("--debug");
  const program = buildProgram(cliIo, (code) => {
    exitCode = code;
  }).hook("preAction", (_, command) => {
    debug = command.opts().debug === true;
    logFormat = command.opts().logFormat === "json" ? "json" : "text";
  });
  // Commander's own errors (an unknown flag, a bad flag value): the error and one line naming the
  // help, not the whole help, which a nightly job would write into its log every night; one JSON
  // object each with --log-format json, as every other stderr line.
  forEachCommand(program, (command) =>
    command
      .showHelpAfterError(`hint: run \`${commandPath(command)} --help\` for ${helpHolds(command)}`)
      .configureOutput({
        writeOut: io.writeOut,
        outputError: (text, write) => write(`${withTokenNote(oneLine(text.trimEnd()))}\n`),
        writeErr: (text) => {
          if (logFormat === "text") writeErr(text);
          else if (text.trim() !== "")
            writeErr(
              `${formatLogLine({ time: io.now(), level: "error", message: text.trimEnd() }, "json")}\n`,
            );
        },
      }),
  );
  try {
    // `help <command>` of a command that does not exist: commander would show the whole help.
    const asked = helpAskedFor(argv);
    if (asked !== undefined && !program.commands.some((command) => command.name() === asked))
      program.error(`error: unknown command '${asked}'`, { code: "commander.unknownCommand" });
    await program.parseAsync(argv);
  } catch (error) {
    // Commander already printed usage errors and help; only map them to an exit code here.
    const code = (error as { code?: string }).code;
    if (code === "commander.help" && (error as { exitCode?: number }).exitCode !== 0) {
      // No command, or `help` of one that does not exist: commander showed the help on stderr, and
      // the command line was still wrong.
      runLine?.failure(new ZooUsageError({ code: "config.invalid", message: helpError(argv) }), {});
      return ExitCode.usage;
    }
    if (code === "commander.helpDisplayed" || code === "commander.version" || code === "commander.help")
      return ExitCode.ok;
    if (typeof code === "string" && code.startsWith("commander.")) {
      // A run refused for its flags is still a run that failed: with --json, stdout says so.
      const message = withTokenNote(oneLine((error as Error).message.replace(/^error: /, "")));
      const hint = flagErrorHint(message, commandNamed(program, argv));
      runLine?.failure(new ZooUsageError({ code: "config.invalid", message, hint }), {});
      return ExitCode.usage;
    }
    // Whatever ended the run before its action printed a line (a refused base URL, say) prints it
    // here; a line already printed stays the only one.
    runLine?.failure(error, {});
    return reportError(error, debug, writeErr, logFormat, io.now);
  }
  return exitCode;
}

/** What was wrong when commander shows the help as an error: no command (or subcommand). */
function helpError(argv: string[]): string {
  const words = argv.slice(2).filter((arg) => !arg.startsWith("-"));
  return words.length > 0
    ? `no command given after '${words.join(" ")}'`
    : "no command given (export, demo, report, operation, sim)";
}

/** `zoo-usage help <name>`: the name. */
function helpAskedFor(argv: string[]): string | undefined {
  const words = argv.slice(2).filter((arg) => !arg.startsWith("-"));
  return words[0] === "help" ? words[1] : undefined;
}

/** Commander's suggestion, on a line of its own after the error, as part of the error's line. */
function oneLine(message: string): string {
  return message.replace(/\n\(Did you mean (.*)\)$/s, " (did you mean $1)");
}

/** `export` and `demo`: the commands that write the warehouse. */
function writesWarehouse(argv: string[]): boolean {
  return argv[2] === "export" || argv[2] === "demo";
}

/** The commands a stop ends: those that write the warehouse, and `sim`, which serves until then. */
function listensForStop(argv: string[]): boolean {
  return writesWarehouse(argv) || argv[2] === "sim";
}

/** What a signal before the run began leaves: a line on stderr, and with --json the run's line. */
function stoppedAtStart(
  name: NodeJS.Signals,
  at: {
    logFormat: LogFormat;
    runLine: RunLine | undefined;
    writeErr: (text: string) => void;
    now: () => Date;
  },
): void {
  const message = `${name}: interrupted during start-up, before the run began; nothing was exported`;
  at.writeErr(`${formatLogLine({ time: at.now(), level: "warn", message }, at.logFormat)}\n`);
  at.runLine?.interruptedAtStart(message);
}

/** The commands whose --json means something else: the report's figures, the operation object. */
const OWN_JSON = new Set(["report", "operation"]);

/**
 * `--json` anywhere before `--`, on a command other than report or operation (export, demo, a
 * mistyped command): the process owes stdout exactly one JSON line, whatever the outcome. Read
 * before commander parses, since a flag it refuses ends the process before any option is set.
 */
function asksForRunLine(argv: string[]): boolean {
  const args = argv.slice(2);
  const end = args.indexOf("--");
  const own = end < 0 ? args : args.slice(0, end);
  const command = own.find((arg) => !arg.startsWith("-"));
  return (
    (command === undefined || !OWN_JSON.has(command)) &&
    own.some((arg) => arg === "--json" || arg.startsWith("--json="))
  );
}

function forEachCommand(command: Command, visit: (command: Command) => void): void {
  visit(command);
  for (const sub of command.commands) forEachCommand(sub, visit);
}

/** The log format asked for, read before commander parses (an error may come before the action). */
function logFormatInArgv(argv: string[]): LogFormat {
  const at = argv.indexOf("--log-format");
  return argv.includes("--log-format=json") || (at >= 0 && argv[at + 1] === "json") ? "json" : "text";
}
