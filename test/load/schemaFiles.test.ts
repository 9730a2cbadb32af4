import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { INTERNAL_TABLES } from "../../src/load/internalSchema.js";
import { commentsOf, SCHEMA_FILES, schemaComments, schemaStatements } from "../../src/load/schemaFiles.js";
import { sqlFile } from "../../src/load/sqlFiles.js";

/**
 * sql/ is filed by concept: a table's CREATE, its later columns and its COMMENTs in one file of
 * sql/tables/ (sql/internal/ for the bookkeeping), the views and macros of one concept with their
 * COMMENTs in one file of sql/views/. Adding a column is then one file and its test; these checks
 * keep the files and the one list that orders them (schemaFiles.ts) from drifting apart.
 */

const SQL_DIR = path.resolve(import.meta.dirname, "../../sql");

function filesUnder(folder: string): string[] {
  return readdirSync(path.join(SQL_DIR, folder))
    .filter((name) => name.endsWith(".sql"))
    .map((name) => `${folder}/${name}`);
}

/** The tables, views and macros a file creates, `internal.name` for one of the internal schema. */
function created(file: string): string[] {
  return [
    ...sqlFile(file).matchAll(
      /^CREATE (?:OR REPLACE )?(?:TABLE|VIEW|MACRO)(?: IF NOT EXISTS)? ((?:internal\.)?\w+)/gm,
    ),
  ].map((match) => String(match[1]));
}

describe("the schema files", () => {
  test("every file of sql/functions, sql/tables, sql/internal and sql/views is applied, once, and only those", () => {
    const onDisk = ["functions", "tables", "internal", "views"].flatMap(filesUnder).sort();
    expect(onDisk.length).toBeGreaterThanOrEqual(20);
    expect([...SCHEMA_FILES].sort()).toEqual(onDisk);
    expect(new Set(SCHEMA_FILES).size).toBe(SCHEMA_FILES.length);
  });

  test("functions/ is applied first: the tables' back-fills and the loader use its macros", () => {
    expect(SCHEMA_FILES[0]).toBe("functions/utc.sql");
    expect(created("functions/utc.sql")).toEqual(["utc_day", "utc_month"]);
  });

  test.each(filesUnder("tables"))("%s creates the one table it is named after", (file) => {
    expect(created(file)).toEqual([path.basename(file, ".sql")]);
  });

  test.each(
    filesUnder("internal").filter(
      (file) => !["internal/schema.sql", "internal/warehouse_id.sql"].includes(file),
    ),
  )("%s creates the one bookkeeping table it is named after, in the internal schema", (file) => {
    expect(created(file)).toEqual([`internal.${path.basename(file, ".sql")}`]);
  });

  test("the bookkeeping an older database's open moves out of main is every table of sql/internal", () => {
    // internal.alert_state (zoo-usage check's memory), internal.schema_state (what the last open
    // applied), internal.focus_partitions (the FOCUS dataset's) and internal.stale_class_days (the
    // stored billing classes') came after the move: never in main, never moved.
    const later = [
      "internal.alert_state",
      "internal.schema_state",
      "internal.focus_partitions",
      "internal.stale_class_days",
    ];
    const tables = filesUnder("internal")
      .flatMap(created)
      .filter((table) => !later.includes(table));
    expect(tables.length).toBe(INTERNAL_TABLES.length);
    expect([...INTERNAL_TABLES].map((table) => `internal.${table}`).sort()).toEqual(tables.sort());
  });

  test.each(SCHEMA_FILES)("%s comments only what it creates, and everything it creates", (file) => {
    const names = created(file);
    const commented = new Set(schemaComments(file).map((comment) => comment.target));
    expect([...commented].filter((name) => !names.includes(name))).toEqual([]);
    expect(names.filter((name) => !commented.has(name))).toEqual([]);
  });

  test.each(SCHEMA_FILES)("%s runs without its COMMENTs, which the open sets apart", (file) => {
    const statements = schemaStatements(file);
    expect(statements).not.toMatch(/^COMMENT ON/m);
    expect(statements).toMatch(/^(CREATE|INSERT) /m);
  });
});

describe("a schema file's COMMENTs", () => {
  test("are read one a line, quotes undoubled, a column's apart from its table's", () => {
    const text = [
      "CREATE TABLE IF NOT EXISTS t (a INTEGER);",
      "COMMENT ON TABLE t IS 'The t''s rows.';",
      "COMMENT ON COLUMN internal.u.b IS 'B.';",
    ].join("\n");
    expect(commentsOf(text, "tables/t.sql")).toEqual([
      { target: "t", column: "", text: "The t's rows." },
      { target: "internal.u", column: "b", text: "B." },
    ]);
  });

  test("fail loudly when one spans lines, rather than run with the statements", () => {
    const text = "COMMENT ON TABLE t IS 'one';\nCOMMENT ON COLUMN t.a IS\n  'split';";
    expect(() => commentsOf(text, "tables/t.sql")).toThrow(/sql\/tables\/t\.sql: 1 COMMENT statements/);
  });
});
