/**
 * The views of a warehouse, timed in one DuckDB process (run it as a child: a cold process, a fresh
 * connection). Every view of the `main` schema (from duckdb_views(), so new views are picked up)
 * runs as `SELECT count(*) FROM (SELECT * FROM <view>)` twice, the second counting; so do the
 * reference, a plain scan of api_calls, and `SELECT count(*)` over every table whose schema or name
 * says rollup or grains (usage_grains, the ledger's daily grain). TimeZone is UTC, as the CLI sets
 * it. Prints one JSON object.
 * usage: node bench/lib/viewTimes.mjs DB
 */
import { DuckDBInstance } from "@duckdb/node-api";

const REFERENCE_SCAN = "SELECT count(*), sum(price_usd), max(created_at) FROM api_calls";

const db = process.argv[2];
if (!db) {
  console.error("usage: node bench/lib/viewTimes.mjs DB");
  process.exit(2);
}
const instance = await DuckDBInstance.create(db, { access_mode: "READ_ONLY" });
const connection = await instance.connect();
await connection.run("SET TimeZone = 'UTC'");
const rows = async (sql) => (await connection.runAndReadAll(sql)).getRowObjectsJson();
const quoted = (name) => `"${name.replaceAll('"', '""')}"`;

/** Runs `sql` twice; the second run's seconds and its first value. */
async function timed(sql) {
  await connection.runAndReadAll(sql);
  const started = performance.now();
  const reader = await connection.runAndReadAll(sql);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, value: String(reader.getRows()[0]?.[0]) };
}

const views = await rows(
  "SELECT view_name, sql FROM duckdb_views() WHERE schema_name = 'main' AND NOT internal ORDER BY view_name",
);
const rollupTables = await rows(
  `SELECT schema_name, table_name FROM duckdb_tables()
   WHERE NOT internal AND (schema_name ILIKE '%rollup%' OR table_name ILIKE '%rollup%' OR table_name ILIKE '%grains%')
   ORDER BY schema_name, table_name`,
);
const reference = await timed(REFERENCE_SCAN);
const rollups = [];
for (const { schema_name: schema, table_name: table } of rollupTables) {
  const name = `${quoted(schema)}.${quoted(table)}`;
  rollups.push({ name: `${schema}.${table}`, table, ...(await timed(`SELECT count(*) FROM ${name}`)) });
}
const results = [];
for (const { view_name: view, sql } of views) {
  const result = { view, ...(await timed(`SELECT count(*) FROM (SELECT * FROM main.${quoted(view)})`)) };
  result.rows = Number(result.value);
  delete result.value;
  // The rollups the view's text names (its own plain count(*) is the yardstick).
  const named = rollups.filter((rollup) => new RegExp(`\\b${rollup.table}\\b`, "i").test(sql));
  result.rollups = named.map((rollup) => rollup.name);
  result.rollupSeconds = named.length === 0 ? null : named.reduce((sum, rollup) => sum + rollup.seconds, 0);
  results.push(result);
}
connection.closeSync();
instance.closeSync();
console.log(
  JSON.stringify({ reference: { sql: REFERENCE_SCAN, seconds: reference.seconds }, rollups, views: results }),
);
