// Makes <dist>/warehouse-template.duckdb, the empty warehouse a new one starts as a copy of
// (src/load/warehouseTemplate.ts): this build's schema applied and recorded, no warehouse id.
// Run by the build (scripts/build/build.mjs) after tsc, on the folder tsc wrote: dist.building/
// before it is swapped into dist/.
import { existsSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const built = path.resolve(process.argv[2] ?? "dist");
const { openWarehouse } = await import(pathToFileURL(path.join(built, "load/database.js")).href);
const template = path.join(built, "warehouse-template.duckdb");

const building = `${template}.building`;
rmSync(building, { force: true });
rmSync(`${building}.wal`, { force: true });
const warehouse = await openWarehouse(building);
try {
  // Each warehouse makes its own id at its first open; a copied one would be shared.
  await warehouse.connection.run("DELETE FROM internal.warehouse_identity");
} finally {
  warehouse.close();
}
if (existsSync(`${building}.wal`)) throw new Error(`${building}.wal is left after the close`);
renameSync(building, template);
