import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { openWarehouse } from "../../src/load/database.js";
import { DuckDBInstance, quotedString } from "../../src/load/duckdb.js";
import { openUnlessLocked } from "../../src/load/warehouseLock.js";
import { tempWorkspace } from "../helpers/exportHarness.js";
import { holdDatabase } from "../helpers/heldDatabase.js";

const holders: ChildProcess[] = [];
afterEach(() => {
  for (const child of holders.splice(0)) child.kill("SIGKILL");
});

/** Another process holding `file`, with a table `held` in it; killed after the test. */
async function holdFile(file: string): Promise<ChildProcess> {
  const holder = await holdDatabase(file, "CREATE TABLE IF NOT EXISTS held (i INTEGER)");
  holders.push(holder);
  return holder;
}

test("a file held by a running process fails the open at once, naming the process", async () => {
  const workspace = await tempWorkspace();
  const holder = await holdFile(workspace.db);
  let attempts = 0;
  const opening = openUnlessLocked(workspace.db, async () => {
    attempts += 1;
    return DuckDBInstance.create(workspace.db);
  });
  await expect(opening).rejects.toMatchObject({
    code: "warehouse.locked",
    message: `The database ${workspace.db} is in use by another process (PID ${holder.pid})`,
  });
  expect(attempts).toBe(1);
  await expect(openWarehouse(workspace.db, { readOnly: true })).rejects.toMatchObject({
    code: "warehouse.locked",
  });
  holder.kill("SIGKILL");
  await once(holder, "close");
  await workspace.cleanup();
});

test("a lock whose holder has ended by the time it is named is waited for, then the open succeeds", async () => {
  const workspace = await tempWorkspace();
  const holder = await holdFile(workspace.db);
  const refusals: string[] = [];
  // As an export opens the file: attached to an in-memory instance, the ATTACH tried again on the
  // same connection.
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  await openUnlessLocked(workspace.db, async () => {
    try {
      await connection.run(`ATTACH ${quotedString(workspace.db)} AS warehouse`);
    } catch (error) {
      refusals.push((error as Error).message);
      // The holder ends between the refusal and the look at who holds the lock.
      holder.kill("SIGKILL");
      await once(holder, "close");
      throw error;
    }
  });
  expect(refusals).toHaveLength(1);
  expect(refusals[0]).toContain(`(PID ${holder.pid})`);
  const tables = await connection.runAndReadAll("SELECT count(*)::INTEGER AS n FROM warehouse.held");
  expect(tables.getRowObjects()).toEqual([{ n: 0 }]);
  instance.closeSync();
  await workspace.cleanup();
});

/** Opens through openUnlessLocked with an open that always fails with `message`. */
async function failingOpen(message: string): Promise<{ error: unknown; attempts: number }> {
  let attempts = 0;
  const error = await openUnlessLocked(FILE, async () => {
    attempts += 1;
    throw new Error(message);
  }).catch((caught: unknown) => caught);
  return { error, attempts };
}

const FILE = path.join("/nowhere", "zoo_usage.duckdb");

test("a refusal that names no holder is tried again about a second, then reported with DuckDB's words", async () => {
  // What DuckDB says when its question "who holds the lock?" finds no one any more.
  const refusal = `IO Error: Could not set lock on file "${FILE}": . See also https://duckdb.org/docs/stable/connect/concurrency`;
  const { error, attempts } = await failingOpen(refusal);
  expect(error).toMatchObject({
    code: "warehouse.locked",
    message: `The database ${FILE} is in use by another process: ${refusal}`,
  });
  expect(attempts).toBe(7);
});

test("an error that only mentions a block is not taken for a lock", async () => {
  const corrupt =
    "IO Error: Corrupt database file: computed checksum 1 does not match stored checksum 2 in block at location 4096";
  const { error, attempts } = await failingOpen(corrupt);
  expect(error).toMatchObject({
    code: "warehouse.unreadable",
    message: `Cannot open ${FILE} as a DuckDB database: ${corrupt}`,
  });
  expect(attempts).toBe(1);
});
