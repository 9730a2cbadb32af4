import { ZooUsageError } from "../errors.js";
import type { DuckDBConnection } from "./duckdb.js";
import { SCHEMA_FILES } from "./schemaFiles.js";
import { sqlFile } from "./sqlFiles.js";

/**
 * Columns every zoo-usage warehouse has had since the first version. Later versions only add
 * columns, so a table of ours has at least these; a table of another tool with the same name
 * (an `api_calls` log of some other API) almost surely lacks some. export_state is in main in a
 * database made before the internal schema, in internal after: either counts.
 */
const SIGNATURE: Readonly<Record<string, readonly string[]>> = {
  api_calls: ["id", "user_id", "created_at", "updated_at", "first_seen_run_id", "last_changed_run_id"],
  export_state: ["singleton", "resume_token", "high_water_created"],
};

/** Names the schema files create: the tables and views an open must not mistake for ours. */
function schemaNames(): Set<string> {
  const names = new Set<string>();
  for (const file of SCHEMA_FILES) {
    for (const match of sqlFile(file).matchAll(
      /CREATE (?:OR REPLACE )?(?:TABLE|VIEW)(?: IF NOT EXISTS)? (?:\w+\.)?(\w+)/g,
    )) {
      if (match[1] !== undefined) names.add(match[1]);
    }
  }
  return names;
}

export type WarehouseShape = "zoo-usage" | "empty";

/**
 * Tells a zoo-usage warehouse from a DuckDB file of something else, before the schema is applied:
 * `CREATE TABLE IF NOT EXISTS` keeps another tool's `api_calls`, and the first insert would then fail
 * deep in a run (or, worse, fit). "empty" is a database holding none of the names zoo-usage creates.
 */
export async function inspectWarehouse(connection: DuckDBConnection, file: string): Promise<WarehouseShape> {
  const reader = await connection.runAndReadAll(
    `SELECT table_name AS name, column_name AS column FROM duckdb_columns()
     WHERE database_name = current_database() AND schema_name IN ('main', 'internal') AND NOT internal`,
  );
  const columns = new Map<string, Set<string>>();
  for (const [name, column] of reader.getRows()) {
    const set = columns.get(String(name)) ?? new Set<string>();
    set.add(String(column));
    columns.set(String(name), set);
  }
  const ours = Object.entries(SIGNATURE).every(([table, required]) => {
    const present = columns.get(table);
    return present !== undefined && required.every((column) => present.has(column));
  });
  if (ours) return "zoo-usage";
  const clashes = [...schemaNames()].filter((name) => columns.has(name));
  if (clashes.length === 0) return "empty";
  throw new ZooUsageError({
    code: "warehouse.unrelated",
    message: `${file} is a DuckDB database of something else: it has ${clashes.join(", ")} but not the columns zoo-usage's tables have (${describeMissing(columns)})`,
    hint: "Choose another --db (a new path is created); this file was not changed.",
  });
}

function describeMissing(columns: ReadonlyMap<string, ReadonlySet<string>>): string {
  return Object.entries(SIGNATURE)
    .map(([table, required]) => {
      const present = columns.get(table);
      if (present === undefined) return `no ${table} table`;
      const missing = required.filter((column) => !present.has(column));
      return missing.length === 0 ? undefined : `${table} lacks ${missing.join(", ")}`;
    })
    .filter((text) => text !== undefined)
    .join("; ");
}
