import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
// @ts-expect-error: a plain ES module of the build, without types.
import { sourcesDigest } from "../../scripts/build/sources-digest.mjs";
// @ts-expect-error: a plain ES module of the build, without types.
import { swapIn } from "../../scripts/build/swap-in.mjs";
import { tempWorkspace } from "../helpers/exportHarness.js";

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), text);
  }
}

test("the build's swap keeps the live folder and its kept folders, replaces files, drops what is gone", async () => {
  const { dir, cleanup } = await tempWorkspace();
  try {
    const live = path.join(dir, "dist");
    const built = path.join(dir, "dist.building");
    await writeTree(live, {
      "bin/cli.js": "old",
      "load/gone.js": "old",
      "stale/x.js": "old",
      "top.txt": "old",
    });
    await writeTree(built, {
      "bin/cli.js": "new",
      "load/kept.js": "new",
      "fresh/y.js": "new",
      "top.txt": "new",
    });
    const before = { live: (await stat(live)).ino, bin: (await stat(path.join(live, "bin"))).ino };
    swapIn(built, live);
    // The same folders (a process holding dist/ or dist/bin/ still finds them), the new files.
    expect((await stat(live)).ino).toBe(before.live);
    expect((await stat(path.join(live, "bin"))).ino).toBe(before.bin);
    expect(await readFile(path.join(live, "bin/cli.js"), "utf8")).toBe("new");
    expect(await readFile(path.join(live, "top.txt"), "utf8")).toBe("new");
    expect(await readFile(path.join(live, "fresh/y.js"), "utf8")).toBe("new");
    expect(await readFile(path.join(live, "load/kept.js"), "utf8")).toBe("new");
    const gone = await Promise.all(
      ["load/gone.js", "stale", "../dist.building"].map((name) =>
        stat(path.join(live, name)).then(
          () => `${name} is left`,
          () => null,
        ),
      ),
    );
    expect(gone.filter((left) => left !== null)).toEqual([]);
  } finally {
    await cleanup();
  }
});

test("the digest `prepare` compares changes with a source file and with nothing else", async () => {
  const { dir, cleanup } = await tempWorkspace();
  try {
    await writeTree(dir, { "src/a.ts": "a", "sql/v.sql": "v", "tsconfig.json": "{}", "README.md": "r" });
    const first = sourcesDigest(dir);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    await writeFile(path.join(dir, "README.md"), "changed");
    expect(sourcesDigest(dir)).toBe(first);
    await writeFile(path.join(dir, "sql/v.sql"), "changed");
    expect(sourcesDigest(dir)).not.toBe(first);
  } finally {
    await cleanup();
  }
});
