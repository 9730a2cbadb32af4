// Makes dist/warehouse-template.duckdb, the empty warehouse a new one starts as a copy of
// (src/load/warehouseTemplate.ts): this build's schema applied and recorded, no warehouse id.
// Run by `npm run build`, after tsc.
import { existsSync, renameSync, rmSync } from "node:fs";

const { openWarehouse } = await import("../dist/load/database.js");
const { WAREHOUSE_TEMPLATE } = await import("../dist/load/warehouseTemplate.js");

const building = `${WAREHOUSE_TEMPLATE}.building`;
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
renameSync(building, WAREHOUSE_TEMPLATE);
