import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
import { splitCompactPage } from "../../src/api/pageItems.js";
import { ItemsSpool } from "../../src/load/spool.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

test("a batch's raw items file is the JSON array of every item appended, in order, whatever runs they came in", async () => {
  const { dir, cleanup } = await tempWorkspace();
  try {
    const page = (items: unknown[]) =>
      splitCompactPage(Buffer.from(JSON.stringify({ next_page: null, items })))?.items ?? [];
    const first = page([{ a: 1 }, { b: "x,y" }, { c: [1, 2] }, { d: "é" }]);
    const second = page([{ e: null }, { f: "}]" }]);
    const spool = new ItemsSpool(path.join(dir, "items.json"));
    // A whole page (one stretch of its body), then items with gaps between them, and a lone one.
    spool.append(first);
    spool.append([second[1] as Buffer, first[0] as Buffer, first[2] as Buffer, first[3] as Buffer]);
    spool.append([]);
    spool.append([second[0] as Buffer]);
    const file = await spool.finish();
    expect(spool.count).toBe(9);
    const text = await readFile(file ?? "", "utf8");
    expect(JSON.parse(text)).toEqual([
      { a: 1 },
      { b: "x,y" },
      { c: [1, 2] },
      { d: "é" },
      { f: "}]" },
      { a: 1 },
      { c: [1, 2] },
      { d: "é" },
      { e: null },
    ]);
    expect(spool.bytes).toBe(Buffer.byteLength(text) - 1);
  } finally {
    await cleanup();
  }
});
