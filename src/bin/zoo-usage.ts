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

// The AWS SDK's notice that its releases after January 2027 need Node 22 is for whoever upgrades
// the pinned SDK (docs/development.md), not for every night's log of an s3:// export.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

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
