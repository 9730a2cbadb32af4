import { createRequire } from "node:module";
import type * as DuckDB from "@duckdb/node-api";

/**
 * @duckdb/node-api, loaded with require. The package is CommonJS: imported from ESM, Node first
 * scans every file its index re-exports for export names (cjs-module-lexer), which took 0.22 s of
 * each run's start against ~0.1 s loaded this way. Every module of the exporter takes DuckDB from
 * here; types come from the package as usual.
 */
const duckdb: typeof DuckDB = createRequire(import.meta.url)("@duckdb/node-api");

export const { DuckDBInstance, quotedIdentifier, quotedString } = duckdb;
export type DuckDBInstance = DuckDB.DuckDBInstance;
export type { DuckDBConnection } from "@duckdb/node-api";
