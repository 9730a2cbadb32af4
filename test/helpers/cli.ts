import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { CliIo, MainIo } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import type { StopSignals } from "../../src/cli/stopSignals.js";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
/**
 * The least time a test gives a process before it takes it for hung and kills it: a bound, never a
 * measure. What takes a second on an idle machine takes tens of seconds on a busy one.
 */
export const HANG_BOUND_MS = 120_000;
export const CLI = path.join(REPO_ROOT, "dist/bin/zoo-usage.js");

/** The end-to-end tests run the built binary, as a user would; `npm test` builds it first. */
export function requireBuiltCli(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` (npm test does it) first`);
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A CliIo for tests that build the program without running it: it prints nothing. */
export const QUIET_CLI_IO: CliIo = {
  env: {},
  stdout: () => {},
  stderr: { write: () => true },
  now: () => new Date(),
};

/**
 * A stop a test sends to an in-process run, as SIGINT or SIGTERM would reach the process: before
 * the run takes it over it is only told (the process would end with 130: test/e2e/ checks that),
 * after it the run stops after the batch in hand.
 */
export function testStop(): { listen: MainIo["listenForStop"]; send: (name?: NodeJS.Signals) => void } {
  const controller = new AbortController();
  let beforeRun: ((name: NodeJS.Signals) => void) | undefined;
  let run: Parameters<StopSignals["takeOver"]>[0] | undefined;
  return {
    listen: (before) => {
      beforeRun = before;
      return { signal: controller.signal, takeOver: (handlers) => (run = handlers) };
    },
    send: (name = "SIGINT") => {
      if (run === undefined) return beforeRun?.(name);
      if (controller.signal.aborted) return;
      controller.abort();
      run.first(name);
    },
  };
}

/**
 * Runs the CLI in this process, as the command line `zoo-usage ...args` would, with exactly the
 * given environment (plus TZ=UTC), never the test's own; resolves with its exit code and what it
 * wrote. `cwd`: the working directory for the run's relative paths (the test file's other tests
 * wait: a file's tests run one at a time). For what only a process shows (signals, start-up, the
 * package), spawnCli.
 */
export async function runCli(
  args: string[],
  options: {
    env?: Record<string, string>;
    cwd?: string;
    stop?: ReturnType<typeof testStop>;
    /** The run's clock (default: the real one). */
    now?: () => Date;
    /** stderr as a terminal of this many columns: progress redraws its line. */
    terminalColumns?: number;
  } = {},
): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const previous = process.cwd();
  if (options.cwd !== undefined) process.chdir(options.cwd);
  try {
    const code = await main([process.execPath, CLI, ...args], {
      env: { TZ: "UTC", ...options.env },
      writeOut: (text) => {
        stdout += text;
      },
      stderr: {
        write: (text: string) => {
          stderr += text;
          return true;
        },
        isTTY: options.terminalColumns !== undefined,
        columns: options.terminalColumns,
      },
      now: options.now ?? (() => new Date()),
      listenForStop:
        options.stop?.listen ?? (() => ({ signal: new AbortController().signal, takeOver() {} })),
    });
    return { code, signal: null, stdout, stderr };
  } finally {
    process.chdir(previous);
  }
}

/**
 * Runs the built CLI as a process of its own, with exactly the given environment (plus PATH), never
 * the test's own: for what only a process shows (signals, start-up, the package, crash kills).
 */
export function spawnCli(
  args: string[],
  options: {
    env?: Record<string, string>;
    cwd?: string;
    onSpawn?: (child: ChildProcess) => void;
    /** Run through this shell: args[0..] are the shell's own ("-c", script, $0, $1 = CLI path...). */
    shell?: string;
    /**
     * SIGKILL the child after this long, and never before HANG_BOUND_MS (the result then has signal
     * SIGKILL): a bound for a hang, not a sync.
     */
    timeoutMs?: number;
  } = {},
): Promise<CliResult> {
  requireBuiltCli();
  return new Promise((resolve, reject) => {
    const command = options.shell ?? process.execPath;
    const argv = options.shell ? args.map((arg) => (arg === "CLI" ? CLI : arg)) : [CLI, ...args];
    const child = spawn(command, argv, {
      cwd: options.cwd ?? REPO_ROOT,
      env: { PATH: process.env.PATH ?? "", TZ: "UTC", ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => child.kill("SIGKILL"), Math.max(options.timeoutMs, HANG_BOUND_MS));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}

/** Resolves once `pattern` appears in what the stream writes from now on. */
export function outputSeen(stream: NodeJS.ReadableStream | null, pattern: RegExp): Promise<void> {
  return new Promise((resolve) => {
    let text = "";
    const onData = (chunk: Buffer | string) => {
      text += chunk;
      if (!pattern.test(text)) return;
      stream?.off("data", onData);
      resolve();
    };
    stream?.on("data", onData);
  });
}

/**
 * Waits for `event` (a held request, a line printed) while the CLI runs; fails at once if the run
 * ends first, since an event that never comes would otherwise leave the test waiting.
 */
export async function whileRunning(
  event: Promise<void>,
  run: Promise<CliResult>,
  what: string,
): Promise<void> {
  const ended = run.then((result) => {
    throw new Error(`the CLI exited (${result.signal ?? result.code}) before ${what}: ${result.stderr}`);
  });
  ended.catch(() => undefined);
  await Promise.race([event, ended]);
}
