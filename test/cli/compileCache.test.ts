import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import { REPO_ROOT, runCli } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

/**
 * The CLI's chunks run from V8's cached code (src/cli/compileCache.ts). Checked on a bin folder of
 * two CommonJS modules run through the built installCompileCache, by what they print and by the
 * cache files: written by the first run, taken as they are by the next, never the code of another
 * source, and never a reason for a run to fail.
 */
const COMPILE_CACHE = path.join(REPO_ROOT, "dist/cli/compileCache.js");

let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
let binDir: string;
let cacheDir: string;
beforeEach(async () => {
  workspace = await tempWorkspace();
  binDir = path.join(workspace.dir, "bin");
  cacheDir = path.join(workspace.dir, "cache");
  await mkdir(binDir);
  await writeFile(path.join(binDir, "main.cjs"), 'console.log("main", require("./part.cjs").word());\n');
  await writeSource("aaa");
  await writeFile(
    path.join(binDir, "entry.mjs"),
    [
      `import { createRequire } from "node:module";`,
      `import { installCompileCache } from ${JSON.stringify(COMPILE_CACHE)};`,
      `installCompileCache(${JSON.stringify(binDir)}, process.argv[2]);`,
      `createRequire(import.meta.url)("./main.cjs");`,
    ].join("\n"),
  );
});
afterEach(() => workspace.cleanup());

/** part.cjs with a word of three letters: every version has the same length. */
function writeSource(word: string): Promise<void> {
  return writeFile(path.join(binDir, "part.cjs"), `exports.word = () => "${word}";\n`);
}

async function run(cache = cacheDir): Promise<string> {
  const result = await runCli([path.join(binDir, "entry.mjs"), cache], { shell: process.execPath });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

/** The cache files and their inodes: a file written again is a new inode (write, then rename). */
async function cacheFiles(): Promise<Map<string, bigint>> {
  const files = new Map<string, bigint>();
  for (const name of await readdir(cacheDir)) {
    files.set(name, (await stat(path.join(cacheDir, name), { bigint: true })).ino);
  }
  return files;
}

test("the first run writes a cache file per module, the next runs take them as they are", async () => {
  expect(await run()).toBe("main aaa\n");
  const written = await cacheFiles();
  expect([...written.keys()].map((name) => name.replace(/\.[0-9a-f]+\.v8$/, "")).sort()).toEqual([
    "main.cjs",
    "part.cjs",
  ]);
  expect(await run()).toBe("main aaa\n");
  expect(await run()).toBe("main aaa\n");
  expect(await cacheFiles()).toEqual(written);
});

test("a module changed to a source of the same length runs its new code", async () => {
  expect(await run()).toBe("main aaa\n");
  await writeSource("bbb");
  expect(await run()).toBe("main bbb\n");
  expect(await run()).toBe("main bbb\n");
  // The old version's cache stays unused beside the new one's.
  expect([...(await cacheFiles()).keys()].filter((name) => name.startsWith("part.cjs."))).toHaveLength(2);
});

test("a damaged cache file is refused by V8 and written again", async () => {
  expect(await run()).toBe("main aaa\n");
  const [name] = [...(await cacheFiles()).keys()].filter((file) => file.startsWith("part.cjs."));
  const file = path.join(cacheDir, String(name));
  await writeFile(file, Buffer.alloc((await stat(file)).size, 0x5a));
  const damaged = (await stat(file, { bigint: true })).ino;
  expect(await run()).toBe("main aaa\n");
  expect((await stat(file, { bigint: true })).ino).not.toBe(damaged);
  expect(await run()).toBe("main aaa\n");
});

test("a cache that cannot be written (a file where its folder should be) costs only the compile", async () => {
  const blocked = path.join(workspace.dir, "not-a-folder");
  await writeFile(blocked, "");
  expect(await run(blocked)).toBe("main aaa\n");
  expect(await run(blocked)).toBe("main aaa\n");
  expect(await readdir(workspace.dir)).not.toContain("cache");
});
