import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
// @ts-expect-error: a plain ES module of the build, without types.
import { sourcesDigest } from "../../scripts/build/sources-digest.mjs";
import { REPO_ROOT, runCli, spawnCli } from "../helpers/cli.js";

/** What a process running from dist/ depends on: the folder and its entry, by inode and mtime. */
function distIdentity(): string[] {
  return ["dist", "dist/bin", "dist/bin/zoo-usage.js", "dist/cli/main.js"].map((name) => {
    const { ino, mtimeMs } = statSync(path.join(REPO_ROOT, name));
    return `${name} ${ino} ${mtimeMs}`;
  });
}

/** Fails, rather than rebuilds under the running suite, when dist/ is not built from these sources. */
function expectDistCurrent(): void {
  const builtFrom = readFileSync(path.join(REPO_ROOT, "dist/.build-sources"), "utf8").trim();
  expect(builtFrom, "dist/ is built from other sources: run `npm run build`").toBe(sourcesDigest(REPO_ROOT));
}

test("npm pack ships only the CLI's run-time files and its docs, and its `prepare` leaves dist/ untouched", () => {
  expectDistCurrent();
  const before = distIdentity();
  // With its scripts: `prepare`, which npm ci, npm link, npx and npm pack run in a clone, builds
  // nothing when dist/ is built from the sources as they are.
  const output = execFileSync("npm", ["pack", "--dry-run", "--json"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  expect(distIdentity()).toEqual(before);
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

test("--version, run the README's way inside the clone, prints the package's version and leaves dist/ untouched", async () => {
  expectDistCurrent();
  // The README's way to run the CLI in a clone: the built entry, not npx (which may run `prepare`).
  const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const way = /inside it `node (dist\/bin\/zoo-usage\.js) \.\.\.`/.exec(readme)?.[1];
  expect(way).toBe("dist/bin/zoo-usage.js");
  const before = distIdentity();
  // The built CLI finds package.json from dist/, where the package puts it.
  const version = packageJsonVersion();
  const result = await spawnCli(["--version"]);
  expect(result.code).toBe(0);
  expect(result.stdout).toBe(`${version}\n`);
  expect(version).toMatch(/^0\.\d+\.\d+$/);
  expect(distIdentity()).toEqual(before);
});

test("-V prints it too", async () => {
  const result = await runCli(["-V"]);
  expect(result.code).toBe(0);
  expect(result.stdout).toBe(`${packageJsonVersion()}\n`);
});
