import path from "node:path";
import { assertWarehouseName } from "../load/warehouseFile.js";
import { type Env, flagOrEnv } from "./environment.js";

/** The warehouse every command uses unless told otherwise: export writes it, report reads it. */
export const DEFAULT_DB = "./zoo-usage/zoo_usage.duckdb";

/**
 * The warehouse file: --db, else ZOO_USAGE_DB, else the default, made absolute. A name that is no
 * file (empty, ":memory:", a URL) is refused with the flag or variable it came from.
 */
export function databasePath(flag: string | undefined, env: Env): string {
  const db = flagOrEnv({ name: "--db", value: flag }, "ZOO_USAGE_DB", env, DEFAULT_DB);
  assertWarehouseName(db.value, db.from === "default" ? "--db" : db.from);
  return path.resolve(db.value);
}
