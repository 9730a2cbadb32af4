import * as duckdb from "@duckdb/node-api";

/**
 * DuckDB's API, for every module of the exporter. In the CLI's bundle (scripts/bundle.mjs) the
 * package's CommonJS files are bundled, and only its native addon is loaded from node_modules.
 */
export const { DuckDBInstance, LIST, listValue, quotedIdentifier, quotedString, VARCHAR } = duckdb;
export type DuckDBInstance = duckdb.DuckDBInstance;
export type { DuckDBConnection } from "@duckdb/node-api";
