import { createHash } from "node:crypto";
import { duckdbVersion } from "./duckdb.js";
import { SCHEMA_STEPS } from "./schemaFiles.js";
import { sqlFile } from "./sqlFiles.js";
import { VIEW_SOURCES } from "./warehouseComments.js";

/**
 * What the schema an open applies is made of: the schema files, their order, the rules by which
 * view columns inherit comments, and the DuckDB library that binds them. A warehouse whose stored
 * fingerprint equals this one already has exactly this schema (it is stored in the transaction that
 * applies it), so the open skips re-applying it (~100 ms of DuckDB parsing and binding per start).
 * The move of an older database's bookkeeping (MOVE_INTERNAL_STATE) needs no place here: a database
 * old enough to need it has no fingerprint.
 */
export function schemaFingerprint(): string {
  const hash = createHash("sha256");
  hash.update(`duckdb ${duckdbVersion()}\n`);
  for (const step of SCHEMA_STEPS) {
    hash.update(`step ${step}\n`);
    if (step.endsWith(".sql")) hash.update(sqlFile(step));
  }
  hash.update(JSON.stringify(VIEW_SOURCES));
  return hash.digest("hex");
}
