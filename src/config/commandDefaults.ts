/**
 * The defaults of the demo's and `operation get`'s own flags, apart from the config loaders (and
 * zod), so that the help shows them without loading either.
 */

/**
 * The demo's own flag defaults. Its export flags default as export's do, but for its own folder
 * (apart from a real export's ./zoo-usage/, so the two never meet) and org scope (its account is an
 * org, exported by its admin).
 */
export const DEMO_DEFAULTS = {
  calls: 50_000,
  db: "./zoo-usage-demo/zoo_usage.duckdb",
  out: "./zoo-usage-demo/parquet",
  scope: "org",
} as const;

/** The defaults of `operation get`'s own flags. */
export const OPERATION_GET_DEFAULTS = { timeoutSeconds: 600 } as const;

/** The demo's export flags whose default is its own, by the config field they set (for its help). */
export const DEMO_EXPORT_DEFAULTS: Readonly<Record<string, string>> = {
  dbPath: DEMO_DEFAULTS.db,
  outDir: DEMO_DEFAULTS.out,
  scope: DEMO_DEFAULTS.scope,
};
