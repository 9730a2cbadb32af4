#!/usr/bin/env node
import module from "node:module";
import { ExitCode } from "../errors.js";

// The command users run (package.json "bin"): the CLI with this process's streams, environment and
// signals. Node 22.1+ keeps V8's compiled code of earlier runs in its own cache (in the temp
// folder, checked against each module's source); Node 20 has none and compiles each run.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// A reader that stops early (`zoo-usage export --help | head`) closes the pipe: what was left to
// print has no reader, which is not an error of the command.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? ExitCode.ok);
  throw error;
});

// Loaded after the compile cache is on, so that the CLI's modules are compiled through it.
const { main } = await import("../cli/main.js");
const { listenForStop } = await import("../cli/stopSignals.js");
process.exitCode = await main(process.argv, {
  env: process.env,
  writeOut: (text) => process.stdout.write(text),
  stderr: process.stderr,
  now: () => new Date(),
  listenForStop,
});
