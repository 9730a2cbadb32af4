import { createRequire } from "node:module";
import type * as DuckDB from "@duckdb/node-api";

/**
 * @duckdb/node-api, loaded with require. The package is CommonJS: imported from ESM, Node first
 * scans every file its index re-exports for export names (cjs-module-lexer), which costs each
 * run's start about twice what require does. Every module of the exporter takes DuckDB from here;
 * types come from the package as usual.
 */
const duckdb: typeof DuckDB = createRequire(import.meta.url)("@duckdb/node-api");

export const { DuckDBInstance, LIST, listValue, quotedIdentifier, quotedString, VARCHAR } = duckdb;
export type DuckDBInstance = DuckDB.DuckDBInstance;
export type { DuckDBConnection } from "@duckdb/node-api";
