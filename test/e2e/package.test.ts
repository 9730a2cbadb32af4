import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { REPO_ROOT, runCli, spawnCli } from "../helpers/cli.js";

test("npm pack ships only the CLI's run-time files and its docs: no test, bench, spec, database or key file", () => {
  // --ignore-scripts: the build already ran (npm test builds before vitest); the file list is the point.
  const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [packed] = JSON.parse(output) as { files: { path: string }[] }[];
  const files = (packed?.files ?? []).map((file) => file.path);
  expect(files).toContain("dist/bin/zoo-usage.js");
  // The modules it runs, as tsc wrote them; no compiled code, no database (the warehouse template).
  expect(files).toContain("dist/cli/main.js");
  expect(files.filter((file) => /compile-cache|\.duckdb$/.test(file))).toEqual([]);
  // Every sql/ file, in every subfolder: the CLI reads them at run time.
  const sqlFiles = readdirSync(path.join(REPO_ROOT, "sql"), { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".sql"))
    .map((file) => `sql/${file.split(path.sep).join("/")}`);
  expect(sqlFiles).toContain("sql/tables/api_calls.sql");
  expect(sqlFiles.filter((file) => !files.includes(file))).toEqual([]);
  // The README links its docs/ pages, so they ship with it.
  const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const linkedPages = [...readme.matchAll(/\]\((docs\/[\w-]+\.md)/g)].map((match) => match[1]);
  expect(linkedPages).toContain("docs/install.md");
  expect(linkedPages.filter((page) => page !== undefined && !files.includes(page))).toEqual([]);
  // And the images it shows (the report's screenshot).
  const images = [...readme.matchAll(/!\[[^\]]*\]\((docs\/[\w-]+\.png)\)/g)].map((match) => match[1]);
  expect(images).toContain("docs/report.png");
  expect(images.filter((image) => image !== undefined && !files.includes(image))).toEqual([]);
  const outside = files.filter(
    (file) =>
      !/^(dist|sql)\/|^docs\/[\w-]+\.(md|png)$/.test(file) &&
      !["README.md", "LICENSE", "package.json"].includes(file),
  );
  expect(outside).toEqual([]);
  expect(files.filter((file) => /\.(duckdb|key|wal)$|^test\/|^bench\//.test(file))).toEqual([]);
  // A source map would point at src/, which is not shipped: none ships, and no script names one.
  expect(files.filter((file) => file.endsWith(".map"))).toEqual([]);
  const namingAMap = files.filter(
    (file) =>
      /\.c?js$/.test(file) && readFileSync(path.join(REPO_ROOT, file), "utf8").includes("sourceMappingURL"),
  );
  expect(namingAMap).toEqual([]);
});

/** The version in package.json, the one npm publishes. */
function packageJsonVersion(): string {
  const { version } = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    version: string;
  };
  return version;
}

test("--version of the built CLI prints the package's version", async () => {
  // The built CLI finds package.json from dist/, where the package puts it.
  const version = packageJsonVersion();
  const result = await spawnCli(["--version"]);
  expect(result.code).toBe(0);
  expect(result.stdout).toBe(`${version}\n`);
  expect(version).toMatch(/^0\.\d+\.\d+$/);
});

test("-V prints it too", async () => {
  const result = await runCli(["-V"]);
  expect(result.code).toBe(0);
  expect(result.stdout).toBe(`${packageJsonVersion()}\n`);
});
