import { existsSync } from "node:fs";
import { copyFile, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import { schemaKey } from "../../src/load/schemaState.js";
import { startFromTemplate, WAREHOUSE_TEMPLATE } from "../../src/load/warehouseTemplate.js";
import { queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";
import { fileSha256 } from "../helpers/fileSha256.js";
import { unusedPid } from "../helpers/unusedPid.js";

/**
 * A new warehouse starts as a copy of the empty one the build makes. It must end exactly as one
 * made statement by statement, with an id of its own; a template of another build only costs the
 * full application; and nothing that exists is ever replaced.
 */

const workspace = await tempWorkspace();
afterAll(() => workspace.cleanup());
const at = (name: string) => path.join(workspace.dir, name);

async function state(db: string): Promise<{ key: unknown; digest: unknown; id: unknown }> {
  const [row] = await queryDb(
    db,
    `SELECT s.schema_key AS key, s.catalog_digest AS digest, i.warehouse_id AS id
     FROM internal.schema_state s, internal.warehouse_identity i`,
  );
  return { key: row?.key, digest: row?.digest, id: row?.id };
}

/** A warehouse made statement by statement: an empty DuckDB file exists, so nothing is copied. */
async function madeTheLongWay(db: string): Promise<void> {
  await writeDb(db, "CHECKPOINT");
  (await openWarehouse(db)).close();
}

describe("a new warehouse from the build's template", () => {
  test("the build made one: this version's schema recorded, and no warehouse id", async () => {
    expect(existsSync(WAREHOUSE_TEMPLATE), "no template in dist/: run `npm run build` (npm test does)").toBe(
      true,
    );
    const [row] = await queryDb(WAREHOUSE_TEMPLATE, "SELECT schema_key FROM internal.schema_state");
    expect(row?.schema_key, "dist/ is of another schema: run `npm run build` (npm test does)").toBe(
      schemaKey(),
    );
    expect(await queryDb(WAREHOUSE_TEMPLATE, "SELECT * FROM internal.warehouse_identity")).toEqual([]);
  });

  test("ends as one made statement by statement, each with an id of its own, the template untouched", async () => {
    const templateBefore = await fileSha256(WAREHOUSE_TEMPLATE);
    (await openWarehouse(at("first.duckdb"))).close();
    (await openWarehouse(at("second.duckdb"))).close();
    await madeTheLongWay(at("long.duckdb"));
    const [first, second, long] = await Promise.all(
      ["first", "second", "long"].map((name) => state(at(`${name}.duckdb`))),
    );
    expect(first?.key).toBe(schemaKey());
    // The same catalog, definition for definition and comment for comment.
    expect(first?.digest).toBe(long?.digest);
    expect(second?.digest).toBe(long?.digest);
    expect(String(first?.id)).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set([first?.id, second?.id, long?.id]).size).toBe(3);
    expect(await fileSha256(WAREHOUSE_TEMPLATE)).toBe(templateBefore);
  });

  test("a template of another build gets the schema applied, as an older database does", async () => {
    const stale = at("stale-template.duckdb");
    await copyFile(WAREHOUSE_TEMPLATE, stale);
    await writeDb(
      stale,
      "CREATE OR REPLACE VIEW cost_per_day AS SELECT 1 AS day; UPDATE internal.schema_state SET schema_key = 'older'",
    );
    await startFromTemplate(at("from-stale.duckdb"), stale);
    (await openWarehouse(at("from-stale.duckdb"))).close();
    await madeTheLongWay(at("long-2.duckdb"));
    const [fromStale, long] = [await state(at("from-stale.duckdb")), await state(at("long-2.duckdb"))];
    expect(fromStale.key).toBe(schemaKey());
    expect(fromStale.digest).toBe(long.digest);
  });

  test("nothing that exists is replaced: a file, or a write-ahead log without its database", async () => {
    await writeFile(at("notes.duckdb"), "not a database");
    await startFromTemplate(at("notes.duckdb"));
    expect(await readFile(at("notes.duckdb"), "utf8")).toBe("not a database");
    await writeFile(at("lost.duckdb.wal"), "a log");
    await startFromTemplate(at("lost.duckdb"));
    expect(await readdir(workspace.dir)).not.toContain("lost.duckdb");
  });

  test("a copy a killed process left is removed, and none of this one's stays", async () => {
    const gone = unusedPid();
    await writeFile(at(`.fresh.duckdb.${gone}.template`), "half a copy");
    await startFromTemplate(at("fresh.duckdb"));
    const entries = await readdir(workspace.dir);
    expect(entries.filter((entry) => entry.endsWith(".template"))).toEqual([]);
    expect(entries).toContain("fresh.duckdb");
  });
});
