import { createHash } from "node:crypto";
import type { DuckDBConnection } from "./duckdb.js";
import { MOVE_INTERNAL_STATE, SCHEMA_STEPS } from "./schemaFiles.js";
import { sqlFile } from "./sqlFiles.js";
import { VIEW_SOURCES } from "./warehouseComments.js";

/**
 * Raised whenever the code that applies the schema (database.ts's createSchema, moveInternalState,
 * commentWarehouse) changes what it leaves in the catalog without a change to sql/ or VIEW_SOURCES:
 * a new key makes every warehouse take the whole schema once more.
 */
const APPLY_REVISION = 1;

let key: string | undefined;

/** What this version applies: the schema files in their order, the comment sources, the rules. */
export function schemaKey(): string {
  key ??= createHash("sha256")
    .update(
      JSON.stringify({
        revision: APPLY_REVISION,
        steps: SCHEMA_STEPS.map((step) => [step, step === MOVE_INTERNAL_STATE ? "" : sqlFile(step)]),
        viewSources: VIEW_SOURCES,
      }),
    )
    .digest("hex");
  return key;
}

async function catalogDigest(connection: DuckDBConnection): Promise<string> {
  const reader = await connection.runAndReadAll(sqlFile("statements/catalog_digest.sql"));
  return String(reader.getRows()[0]?.[0]);
}

/**
 * Whether the schema as this version applies it is already there: the last full application was
 * of this key, and the catalog is still the one it left. The digest covers every definition and
 * comment, so a view another version re-made, a comment a user changed or a dropped macro all
 * differ, and a database no open has recorded (new, or made before the record) has no state.
 */
export async function schemaIsCurrent(connection: DuckDBConnection): Promise<boolean> {
  const present = await connection.runAndReadAll(
    `SELECT count(*) FROM duckdb_tables()
     WHERE database_name = current_database() AND schema_name = 'internal' AND table_name = 'schema_state'`,
  );
  if (present.getRows()[0]?.[0] !== 1n) return false;
  const stored = await connection.runAndReadAll(
    "SELECT schema_key, catalog_digest FROM internal.schema_state",
  );
  const rows = stored.getRows();
  if (rows.length !== 1 || rows[0]?.[0] !== schemaKey()) return false;
  return rows[0]?.[1] === (await catalogDigest(connection));
}

/** Records the application just made: this key, and its catalog as a later open reads it. */
export async function recordSchema(connection: DuckDBConnection): Promise<void> {
  const digest = await catalogDigest(connection);
  await connection.run("DELETE FROM internal.schema_state");
  await connection.run("INSERT INTO internal.schema_state VALUES ($key, $digest, now())", {
    key: schemaKey(),
    digest,
  });
}
