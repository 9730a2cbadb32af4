import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

/** The house's bound on one file of src/: past it, a file holds more than one concept and is split. */
const MAX_LINES = 300;

const SRC = path.resolve(import.meta.dirname, "../../src");

/** Every file under src/, as a path relative to it with forward slashes. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return [path.relative(SRC, full).split(path.sep).join("/")];
  });
}

/** Lines as `wc -l` counts them in a file that ends with a newline: the last one is not an extra line. */
function lineCount(text: string): number {
  if (text === "") return 0;
  return text.replace(/\n$/, "").split("\n").length;
}

describe("size of the files of src/", () => {
  const files = sourceFiles();

  test("reads every source file", () => {
    // A walk that found nothing would let every file pass.
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain("cli/main.ts");
  });

  test("counts lines as wc -l does", () => {
    expect([
      lineCount(""),
      lineCount("a\n"),
      lineCount("a\nb"),
      lineCount("a\nb\n"),
      lineCount("\n\n"),
    ]).toEqual([0, 1, 2, 2, 2]);
  });

  test(`no file is over ${MAX_LINES} lines`, () => {
    const over = files.flatMap((file) => {
      const lines = lineCount(readFileSync(path.join(SRC, file), "utf8"));
      return lines > MAX_LINES ? [`src/${file}: ${lines} lines`] : [];
    });
    expect(over, `split these by concern (at most ${MAX_LINES} lines a file)`).toEqual([]);
  });
});
