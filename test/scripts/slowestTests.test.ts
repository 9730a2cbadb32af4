import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { REPO_ROOT } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

const run = promisify(execFile);
const SCRIPT = path.join(REPO_ROOT, "scripts/slowest-tests.mjs");

/** A vitest JSON report's file entry: the fields the script reads. */
function fileResult(name: string, seconds: number, tests: Array<[string, number]>) {
  return {
    name: path.join(REPO_ROOT, name),
    startTime: 1_000_000,
    endTime: 1_000_000 + seconds * 1000,
    assertionResults: tests.map(([title, ms]) => ({ title, duration: ms, status: "passed" })),
  };
}

test("lists the slowest files first, with their slowest test, and says how to make the report", async () => {
  const { dir, cleanup } = await tempWorkspace();
  try {
    const report = path.join(dir, "results.json");
    const testResults = Array.from({ length: 12 }, (_, i) =>
      fileResult(`test/x/file${i}.test.ts`, i + 0.5, [
        [`quick ${i}`, 10],
        [`slow ${i}`, i * 100 + 60],
      ]),
    );
    await writeFile(report, JSON.stringify({ numTotalTests: 24, testResults }));
    const { stdout } = await run(process.execPath, [SCRIPT, report], { cwd: REPO_ROOT });
    const listed = stdout.split("\n").filter((line) => /^\s+\d+\.\d\s/.test(line));
    expect(listed).toHaveLength(10);
    expect(listed[0]).toMatch(/^\s+11\.5\s+2\s+test\/x\/file11\.test\.ts \(1\.2 s: slow 11\)$/);
    expect(listed[9]).toMatch(/test\/x\/file2\.test\.ts/);
    expect(stdout).toMatch(/^12 test files, 72\.0 s in all/);
    expect(stdout).toContain("CI=true npx vitest run");
  } finally {
    await cleanup();
  }
});

test("without a report: exit 2, and how to produce one", async () => {
  const missing = path.join(REPO_ROOT, "test-artifacts", "no-such-report.json");
  const failure = await run(process.execPath, [SCRIPT, missing], { cwd: REPO_ROOT }).catch(
    (error: { code: number; stderr: string }) => error,
  );
  expect(failure).toMatchObject({ code: 2 });
  expect((failure as { stderr: string }).stderr).toContain(`no vitest JSON report at ${missing}`);
  expect((failure as { stderr: string }).stderr).toContain("CI=true npx vitest run");
});
