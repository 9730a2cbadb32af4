import { rm } from "node:fs/promises";
import { DuckDBInstance } from "@duckdb/node-api";
import { CREATE_TABLE, readJsonSql } from "./duckdbSql.mjs";

/**
 * The load ceiling: DuckDB alone reading the NDJSON items into a typed table (no primary key, as ours),
 * in a fresh file database, checkpoint and close included. No JavaScript touches a record.
 */
export async function loadCeiling(ndjsonFile, dbFile) {
  await rm(dbFile, { force: true });
  await rm(`${dbFile}.wal`, { force: true });
  const started = performance.now();
  const instance = await DuckDBInstance.create(dbFile);
  const connection = await instance.connect();
  await connection.run(CREATE_TABLE);
  await connection.run(readJsonSql(ndjsonFile));
  const count = await connection.runAndReadAll("SELECT count(*)::INTEGER FROM api_calls");
  await connection.run("CHECKPOINT");
  connection.closeSync();
  instance.closeSync();
  const seconds = (performance.now() - started) / 1000;
  return { seconds, records: count.getRows()[0][0] };
}
