import { constants } from "node:fs";
import { access, copyFile, link, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { removeOrphanedTemporaries } from "./orphanedTemporaries.js";

/**
 * The empty warehouse the build makes (scripts/warehouse-template.mjs): this version's schema
 * applied and recorded (schemaState.ts), no warehouse id. It sits at the root of the tree this module
 * was built into: dist/, or dist.building/ while the build makes it there, so the build's own open
 * never copies the template of the build before. Run from src/ (the tests), it is dist/'s. Not
 * shipped in the package (no database file is): an installed copy makes its first warehouse the long
 * way, once.
 */
const TREE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const WAREHOUSE_TEMPLATE = path.join(
  path.basename(TREE_ROOT) === "src" ? path.resolve(TREE_ROOT, "../dist") : TREE_ROOT,
  "warehouse-template.duckdb",
);

/**
 * Starts a warehouse that does not exist yet as a copy of the template, so that its first open
 * finds the schema current instead of running some 700 statements (about 120 ms; the test suite
 * makes hundreds). Only an accelerator: a template of another build fails the open's key check and
 * gets the schema applied like any older database, and without one (not built, or this is not a
 * clone) nothing is copied. The copy is written under a temporary name and linked into place, so
 * that no other process opens half a copy and a database made meanwhile is kept; any failure
 * leaves the open to make the warehouse itself. The open makes the warehouse's own id.
 */
export async function startFromTemplate(file: string, template = WAREHOUSE_TEMPLATE): Promise<void> {
  if ((await exists(file)) || (await exists(`${file}.wal`)) || !(await exists(template))) return;
  const dir = path.dirname(file);
  const name = path.basename(file);
  const staging = path.join(dir, `.${name}.${process.pid}.template`);
  try {
    // What a killed open left: `.<name>.<pid>.template` of a process now gone.
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await removeOrphanedTemporaries(dir, new RegExp(`^\\.${escaped}\\.(\\d+)\\.template$`));
    await copyFile(template, staging, constants.COPYFILE_EXCL);
    await link(staging, file);
  } catch {
    // EEXIST: another process made the database first, and it is kept. Anything else (no hard
    // links on this file system, no room for the copy): the open makes the database.
  } finally {
    await rm(staging, { force: true }).catch(() => undefined);
  }
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
