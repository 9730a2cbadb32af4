/**
 * The naive exporter, as someone would write it by hand: fetch a page, JSON.parse it, append its
 * records row by row into DuckDB (strings cast by DuckDB, the simplest exact path), fetch the next
 * page, and COPY the table to one zstd Parquet file at the end. No prefetch, no batching tricks.
 * Run as a child by bench/run.mjs: `node bench/naive.mjs DB PARQUET` with BENCH_URL and BENCH_TOKEN;
 * prints one JSON line with its figures.
 */
import { DuckDBInstance, quotedString } from "@duckdb/node-api";
import { request } from "undici";
import { CREATE_TABLE, ITEM_COLUMNS } from "./lib/duckdbSql.mjs";

const [dbFile, parquetFile] = process.argv.slice(2);
const base = process.env.BENCH_URL;
const token = process.env.BENCH_TOKEN;

const started = performance.now();
const instance = await DuckDBInstance.create(dbFile);
const connection = await instance.connect();
await connection.run(CREATE_TABLE);
const appender = await connection.createAppender("api_calls");

let pageToken = null;
let records = 0;
let requests = 0;
for (;;) {
  const query = new URLSearchParams({ limit: "1000", sort_by: "created_at_ascending" });
  if (pageToken !== null) query.set("page_token", pageToken);
  const response = await request(`${base}/user/api-calls?${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const page = JSON.parse(await response.body.text());
  requests += 1;
  for (const item of page.items) {
    for (const [name, type] of ITEM_COLUMNS) {
      const value = item[name];
      if (value === null || value === undefined) appender.appendNull();
      else if (type === "INTEGER") appender.appendInteger(value);
      else if (type === "BIGINT") appender.appendBigInt(BigInt(value));
      else appender.appendVarchar(String(value));
    }
    appender.endRow();
    records += 1;
  }
  pageToken = page.next_page ?? null;
  if (pageToken === null) break;
}
appender.closeSync();
await connection.run(
  `COPY (SELECT * FROM api_calls ORDER BY created_at) TO ${quotedString(parquetFile)} (FORMAT parquet, COMPRESSION zstd)`,
);
connection.closeSync();
instance.closeSync();
process.stdout.write(
  `${JSON.stringify({
    records,
    requests,
    seconds: (performance.now() - started) / 1000,
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  })}\n`,
);
