import * as duckdb from "@duckdb/node-api";

/** DuckDB's API, for every module of the exporter: one import of the package, one place to name. */
export const { DuckDBInstance, LIST, listValue, quotedIdentifier, quotedString, VARCHAR } = duckdb;
export type DuckDBInstance = duckdb.DuckDBInstance;
export type { DuckDBConnection } from "@duckdb/node-api";
