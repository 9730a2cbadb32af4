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
  return warehousePath(db.value, db.from === "default" ? "--db" : db.from);
}

/** A warehouse file's name made absolute, or refused naming `from`, the flag or variable it came from. */
export function warehousePath(name: string, from: string): string {
  assertWarehouseName(name, from);
  return path.resolve(name);
}
