import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

/**
 * The house's floors: a folder of src/ imports only folders on floors below its own. Two folders on
 * one floor import neither way. docs/development.md draws the same table.
 */
const FLOORS: Record<string, number> = {
  bin: 11, // the process: its streams, environment and signals handed to the CLI
  cli: 10, // argument parsing, printing, exit codes
  commands: 9, // one file per subcommand: loads config, opens the warehouse, runs the pipeline
  pipeline: 8, // the plan: which sources run in which order, the run's status and summary
  report: 8, // the report command's reading and rendering
  check: 8, // the check command: rules, alerts, the forecast backtest
  sources: 7, // one declaration per API resource and its part of the run summary, the one runner
  config: 6, // flags + environment -> a typed config
  destination: 5, // where the Parquet datasets go: a directory or a bucket prefix, behind one interface
  forecast: 5, // the month-end forecast over the stored daily spend: check and report both read it
  operations: 5, // operation view, wait and save-outputs helpers (saving uses load's file helpers)
  extract: 4, // HTTP paging and fetching only
  load: 4, // the DuckDB warehouse: tables, SQL files, transactions, the checkpoint tables
  transform: 3, // pure validation and normalisation
  api: 2, // HTTP client, schemas, body readers
  secrets: 2,
  errors: 1, // src/errors.ts
  log: 1,
};

/**
 * Apart from the floors: the simulator stands in for the API. It imports only the API's schemas and
 * the errors, and only the commands that run it (and the CLI) import it.
 */
const APART: Record<string, { mayImport: readonly string[]; importedBy: readonly string[] }> = {
  sim: { mayImport: ["api/schemas/", "errors.ts"], importedBy: ["commands", "cli"] },
};

const SRC = path.resolve(import.meta.dirname, "../../src");

/** Every TypeScript file under src/, as a path relative to it with forward slashes. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".ts") ? [path.relative(SRC, full).split(path.sep).join("/")] : [];
  });
}

/** The relative imports of a file (`from "..."`, `import("...")`, `import "..."`), as paths under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(SRC, file), "utf8");
  const specifiers = [
    ...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm),
  ];
  return specifiers.map((match) => {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1] as string));
    return target.replace(/\.js$/, ".ts");
  });
}

/** The folder a path under src/ belongs to: its first segment, or the file's name for src/errors.ts. */
function folderOf(file: string): string {
  const first = file.split("/")[0] as string;
  return first.endsWith(".ts") ? first.slice(0, -3) : first;
}

/** Why `file` may not import `target`, or undefined when it may. */
function breach(file: string, target: string): string | undefined {
  const from = folderOf(file);
  const to = folderOf(target);
  if (from === to) return undefined;
  const apartFrom = APART[from];
  if (apartFrom !== undefined) {
    return apartFrom.mayImport.some((allowed) => target.startsWith(allowed))
      ? undefined
      : `${from} stands apart and imports only ${apartFrom.mayImport.join(", ")}`;
  }
  const apartTo = APART[to];
  if (apartTo !== undefined) {
    return apartTo.importedBy.includes(from)
      ? undefined
      : `only ${apartTo.importedBy.join(", ")} import ${to}`;
  }
  const fromFloor = FLOORS[from];
  const toFloor = FLOORS[to];
  if (fromFloor === undefined || toFloor === undefined)
    return `${fromFloor === undefined ? from : to} has no floor`;
  if (toFloor < fromFloor) return undefined;
  return toFloor === fromFloor
    ? `${from} and ${to} share floor ${fromFloor}`
    : `${to} (floor ${toFloor}) is above ${from} (floor ${fromFloor})`;
}

const files = sourceFiles();
const imports = files.flatMap((file) => importsOf(file).map((target) => ({ file, target })));

describe("layering of src/", () => {
  test("reads the imports of every source file", () => {
    // A regex that matched nothing would let every rule pass.
    expect(files.length).toBeGreaterThan(100);
    expect(imports.length).toBeGreaterThan(files.length);
    expect(imports).toContainEqual({ file: "cli/main.ts", target: "errors.ts" });
  });

  test("every folder of src/ has a place in the table", () => {
    const unplaced = [...new Set(files.map(folderOf))].filter(
      (folder) => FLOORS[folder] === undefined && APART[folder] === undefined,
    );
    expect(unplaced, "give each new folder a floor in FLOORS (and in docs/development.md)").toEqual([]);
  });

  test("no file imports a folder on its own floor or above", () => {
    const breaches = imports.flatMap(({ file, target }) => {
      const why = breach(file, target);
      return why === undefined ? [] : [`src/${file} imports src/${target}: ${why}`];
    });
    expect(breaches).toEqual([]);
  });
});
