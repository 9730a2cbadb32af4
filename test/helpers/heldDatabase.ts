import { type ChildProcess, spawn } from "node:child_process";
import { outputSeen, REPO_ROOT } from "./cli.js";

/**
 * Another process with `file` open for writing, as a second export or the DuckDB CLI has it, until
 * it is killed. `statement` runs once the file is open.
 *
 * The instance and its connection stay reachable from `globalThis`: once the script's top level
 * has finished, nothing else refers to them, and a garbage collection in the holder would close
 * the database and free its lock while the test still counts on it being held. The holder collects
 * its garbage once its top level has ended, before it says it holds the file, so that a lost
 * reference fails every time instead of when the collector happens to run.
 */
export async function holdDatabase(file: string, statement = "SELECT 1"): Promise<ChildProcess> {
  const script = `
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const instance = await DuckDBInstance.create(process.argv[1]);
    const connection = await instance.connect();
    await connection.run(process.argv[2]);
    globalThis.heldDatabase = { instance, connection };
    setTimeout(() => {
      globalThis.gc();
      console.log("holding");
    }, 0);
    setInterval(() => undefined, 1000);`;
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--input-type=module", "-e", script, file, statement],
    {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const ended = new Promise<never>((_, reject) =>
    child.once("close", (code, signal) =>
      reject(new Error(`the process meant to hold ${file} ended first (code ${code}, signal ${signal})`)),
    ),
  );
  await Promise.race([outputSeen(child.stdout, /holding/), ended]);
  ended.catch(() => undefined);
  return child;
}
