import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { NOT_QUICK, QUICK_TESTS } from "../../vitest.quick.config.js";
import { REPO_ROOT } from "../helpers/cli.js";

/** What makes a test slow: an export run, the CLI, a browser, or any child process. */
const SLOW_CALLS = [
  "runCli",
  "spawnCli",
  "exportOnce",
  "runExport",
  "buildWarehouse",
  "holdDatabase",
  "launchChromium",
  "spawn",
  "execFile",
  "fork",
];
const SLOW_CALL = new RegExp(`\\b(${SLOW_CALLS.join("|")})\\(`);

function testFilesUnder(dir: string): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => path.posix.join(dir, name.split(path.sep).join("/")));
}

/** The files `npm run test:quick` runs: the folders' tests and the files named, less NOT_QUICK. */
function quickFiles(): string[] {
  const files = QUICK_TESTS.flatMap((pattern) =>
    pattern.endsWith("/**/*.test.ts") ? testFilesUnder(pattern.slice(0, -"/**/*.test.ts".length)) : [pattern],
  );
  return files.filter((file) => !NOT_QUICK.includes(file));
}

test("the quick tests run no export and spawn no process", () => {
  const files = quickFiles();
  expect(files.length).toBeGreaterThan(50);
  const slow = files.filter((file) => {
    const text = readFileSync(path.join(REPO_ROOT, file), "utf8");
    return SLOW_CALL.test(text) || /from ["']node:child_process["']/.test(text);
  });
  expect(slow, "move these to NOT_QUICK in vitest.quick.config.ts").toEqual([]);
});

test("every file NOT_QUICK leaves out exists", () => {
  const missing = NOT_QUICK.filter(
    (file) => !readdirSync(path.join(REPO_ROOT, path.dirname(file))).includes(path.basename(file)),
  );
  expect(missing).toEqual([]);
});
