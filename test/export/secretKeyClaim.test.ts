import { chmod, copyFile, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SecretBox } from "../../src/secrets/secretBox.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { runCli } from "../helpers/cli.js";
import { startCountingProxy } from "../helpers/countingProxy.js";
import { exportOnce, queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";
import { recordingLogger } from "../helpers/recordingLogger.js";

/**
 * The secret key keys the hashed columns: a run with another key would give the same token a
 * second token_hash, and per-token sums would split without a word. A database records which key
 * it was written with, and a run with another one is refused unless --new-secret-key.
 */
let sim: RunningSimulator;
let token: string;
beforeAll(async () => {
  sim = await startSimulator({
    seed: 29,
    calls: 1500,
    days: 10,
    // A second user, whose token lists other calls than the database holds.
    users: 2,
    firstUserApiTokens: 3,
    firstUserToken: "zoo-key-token-7c1e",
  });
  token = sim.users[0]?.token ?? "";
});
afterAll(() => sim.close());

const logger = recordingLogger();
const logged = logger.lines;

/** One export of the simulator into `db`, a new day of calls after the last. */
async function nextNight(
  db: string,
  out: string,
  flags: { newSecretKey?: boolean; limit?: number } = {},
  as = token,
) {
  sim.clock.advance(86_400_000);
  return exportOnce({ baseUrl: sim.url, token: as, flags: { db, out, operations: false, ...flags }, logger });
}

/** The key check the database records. */
async function recordedCheck(db: string): Promise<unknown> {
  const [row] = await queryDb(db, "SELECT secret_key_check FROM internal.export_state");
  return row?.secret_key_check;
}

const OTHER_KEY = `${"5e".repeat(32)}\n`;

/**
 * One export through a proxy that answers the paths of `failing` with their status (each time),
 * with one attempt a request: a run that fails part-way.
 */
async function throughProxy(
  db: string,
  out: string,
  failing: Record<string, number>,
  flags: { newSecretKey?: boolean } = {},
) {
  const proxy = await startCountingProxy(sim.url, undefined, (pathname) => {
    const status = failing[pathname];
    return status === undefined
      ? undefined
      : { status, body: JSON.stringify({ message: `refused with ${status}`, request_id: "proxy" }) };
  });
  try {
    sim.clock.advance(86_400_000);
    return await exportOnce({
      baseUrl: proxy.url,
      token,
      flags: { db, out, operations: false, limit: 300, ...flags },
      logger,
      maxAttempts: 1,
    });
  } finally {
    await proxy.close();
  }
}

/** The stored calls by token_hash: how many there are, and how many distinct hashes. */
async function hashes(db: string): Promise<{ calls: number; hashes: number }> {
  const [row] = await queryDb(
    db,
    "SELECT count(*)::INTEGER AS calls, count(DISTINCT token_hash)::INTEGER AS hashes FROM api_calls",
  );
  return row as { calls: number; hashes: number };
}

/**
 * Every file under `dir` with its size and modification time: what a refused run must not touch.
 * Directories are left out: the run's checks that they are writable create and remove a probe.
 */
async function filesUnder(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true });
  const seen = await Promise.all(
    names.map(async (name) => {
      const info = await stat(path.join(dir, name));
      return info.isFile() ? [`${name} ${info.size} ${info.mtimeMs}`] : [];
    }),
  );
  return seen.flat().sort();
}

/** A workspace for one test (its folder, database, dataset and key file), removed afterwards. */
async function inWorkspace(
  use: (workspace: { dir: string; db: string; out: string; keyFile: string }) => Promise<void>,
): Promise<void> {
  const { dir, db, out, cleanup } = await tempWorkspace();
  try {
    await use({ dir, db, out, keyFile: path.join(dir, "zoo_usage.key") });
  } finally {
    await cleanup();
  }
}

describe("a database written with one secret key", () => {
  test("a lost key file: refused with what to do, no new key made, nothing touched; the restored key goes on", () =>
    inWorkspace(async ({ dir, db, out, keyFile }) => {
      expect((await nextNight(db, out)).exitCode).toBe(0);
      const before = await hashes(db);
      expect(before.hashes).toBeGreaterThan(1);
      await copyFile(keyFile, path.join(dir, "backup.key"));
      await rm(keyFile);
      const files = await filesUnder(dir);

      const refused = await nextNight(db, out).catch((error: unknown) => error);
      expect(refused).toMatchObject({
        code: "warehouse.other_key",
        exitCode: 2,
        message: `The secret key file ${keyFile} is missing, but the database ${db} was written with a secret key`,
      });
      expect((refused as { hint: string }).hint).toMatch(
        /zoo_usage\.key.*ZOO_USAGE_SECRET_KEY.*--new-secret-key/s,
      );
      expect(await filesUnder(dir)).toEqual(files);

      await copyFile(path.join(dir, "backup.key"), keyFile);
      const next = await nextNight(db, out);
      expect(next.exitCode).toBe(0);
      expect(next.summary.records_new).toBeGreaterThan(0);
      // The new night's calls are under the same tokens' hashes as the old ones.
      expect(await hashes(db)).toEqual({
        calls: before.calls + next.summary.records_new,
        hashes: before.hashes,
      });
    }));

  test("--new-secret-key: a lost key is replaced, said, and the next runs keep the new one", () =>
    inWorkspace(async ({ db, out, keyFile }) => {
      // Pages of 300 calls leave stored positions, so that a night with the same key is incremental.
      expect((await nextNight(db, out, { limit: 300 })).exitCode).toBe(0);
      expect((await nextNight(db, out, { limit: 300 })).summary.scan_mode).toBe("incremental");
      const before = await hashes(db);
      await rm(keyFile);
      logged.length = 0;
      const replaced = await nextNight(db, out, { newSecretKey: true, limit: 300 });
      expect(replaced.exitCode).toBe(0);
      // The stored page tokens were sealed with the old key: the whole history is read again.
      expect(replaced.summary.scan_mode).toBe("full");
      expect(logged.filter((line) => line.includes("--new-secret-key"))).toHaveLength(1);
      expect(logged.join("\n")).toMatch(/rows stored before this run keep the old key's hashes/);
      // The new night's calls are hashed with the new key: the same tokens, new hashes.
      expect((await hashes(db)).hashes).toBeGreaterThan(before.hashes);
      await stat(keyFile);

      logged.length = 0;
      expect((await nextNight(db, out, { limit: 300 })).summary.scan_mode).toBe("incremental");
      expect((await nextNight(db, out, { newSecretKey: true, limit: 300 })).exitCode).toBe(0);
      // The flag with the key the database records changes nothing and says nothing.
      expect(logged.filter((line) => line.includes("--new-secret-key"))).toEqual([]);

      // A run with the flag and a new key that fails after it stored batches: each batch recorded
      // the key it was made with, so that key is the database's, and the one before is refused.
      const failing = await startCountingProxy(sim.url, undefined, (pathname, _, count) =>
        pathname === "/user/api-calls" && count === 3
          ? { status: 401, body: JSON.stringify({ message: "unauthorized", request_id: "r" }) }
          : undefined,
      );
      const replacedKey = await readFile(keyFile, "utf8");
      const next = "7b".repeat(32);
      await writeFile(keyFile, `${next}\n`);
      try {
        sim.clock.advance(86_400_000);
        await expect(
          exportOnce({
            baseUrl: failing.url,
            token,
            flags: { db, out, operations: false, limit: 300, batchRecords: 300, newSecretKey: true },
            logger,
            maxAttempts: 1,
          }),
        ).rejects.toMatchObject({ code: "api.unauthorized" });
      } finally {
        await failing.close();
      }
      expect(await recordedCheck(db)).toBe(new SecretBox(Buffer.from(next, "hex")).keyCheck);
      await writeFile(keyFile, replacedKey);
      await expect(nextNight(db, out)).rejects.toMatchObject({ code: "warehouse.other_key" });
      await writeFile(keyFile, `${next}\n`);
      expect((await nextNight(db, out, { limit: 300 })).exitCode).toBe(0);
    }));

  test("a database that records no key (made before the check) and holds no page token takes the run's", () =>
    inWorkspace(async ({ db, out, keyFile }) => {
      expect((await nextNight(db, out)).exitCode).toBe(0);
      await writeDb(
        db,
        `UPDATE internal.export_state SET secret_key_check = NULL, resume_token = NULL;
         DELETE FROM internal.page_ladder;`,
      );
      await rm(keyFile);
      expect((await nextNight(db, out)).exitCode).toBe(0);
      expect(await recordedCheck(db)).toMatch(/^[0-9a-f]{64}$/);
      await rm(keyFile);
      await expect(nextNight(db, out)).rejects.toMatchObject({ code: "warehouse.other_key" });
    }));

  test("a key file others may read is used with a warning naming the chmod; at 0600 none", () =>
    inWorkspace(async ({ db, out, keyFile }) => {
      // The same night three times: the simulator's clock stays, for the tests after this one.
      const again = () =>
        exportOnce({ baseUrl: sim.url, token, flags: { db, out, operations: false }, logger });
      const aboutKey = (warnings: string[]) => warnings.filter((line) => line.includes(keyFile));
      expect(aboutKey((await again()).summary.warnings)).toEqual([]);
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
      await chmod(keyFile, 0o644);
      const loose = await again();
      expect(loose.exitCode).toBe(0);
      const said = `the secret key file ${keyFile} has mode 0644: other users may read the key that hashes tokens and seals page tokens; run chmod 600 ${keyFile}`;
      expect(aboutKey(loose.summary.warnings)).toEqual([said]);
      expect(logged).toContain(said);
      await chmod(keyFile, 0o600);
      expect(aboutKey((await again()).summary.warnings)).toEqual([]);
    }));

  test("another ZOO_USAGE_SECRET_KEY: exit 2 naming the variable, never the key; the key it was made with goes on", () =>
    inWorkspace(async ({ db, out }) => {
      const first = "3c".repeat(32);
      const other = "a7".repeat(32);
      const run = (key: string, ...flags: string[]) =>
        runCli(["export", "--db", db, "--out", out, "--no-operations", ...flags], {
          env: { ZOO_API_TOKEN: token, ZOO_HOST: sim.url, ZOO_USAGE_SECRET_KEY: key },
        });
      expect((await run(first)).code).toBe(0);
      const refused = await run(other, "--json");
      expect(refused.code).toBe(2);
      expect(JSON.parse(refused.stdout)).toMatchObject({
        status: "failed",
        exit_code: 2,
        error: { code: "warehouse.other_key" },
      });
      expect(refused.stderr).toContain(
        `The secret key from ZOO_USAGE_SECRET_KEY is not the one the database ${db} was written with`,
      );
      for (const key of [first, other]) {
        expect(refused.stderr + refused.stdout).not.toContain(key.slice(0, 16));
      }
      // A key file made meanwhile would be a second key beside the database: none is.
      expect((await readdir(path.dirname(db))).filter((name) => name.endsWith(".key"))).toEqual([]);
      expect((await run(first)).code).toBe(0);
      // The same key in base64 is the same key.
      expect((await run(Buffer.from(first, "hex").toString("base64"))).code).toBe(0);
    }));

  test("a key file with another key: refused naming the file; a run refused later leaves the database's key", () =>
    inWorkspace(async ({ db, out, keyFile }) => {
      expect((await nextNight(db, out)).exitCode).toBe(0);
      const check = await recordedCheck(db);
      const original = await readFile(keyFile, "utf8");
      await writeFile(keyFile, OTHER_KEY);
      const refused = await nextNight(db, out).catch((error: unknown) => error);
      expect(refused).toMatchObject({
        code: "warehouse.other_key",
        message: `The secret key from ${keyFile} is not the one the database ${db} was written with`,
      });
      expect((refused as { hint: string }).hint).toMatch(/key file of its backup/);

      // --new-secret-key on a run that its owner check refuses: the database keeps its key.
      const otherUser = sim.users[1]?.token ?? "";
      await expect(nextNight(db, out, { newSecretKey: true }, otherUser)).rejects.toMatchObject({
        code: "warehouse.other_user",
      });
      expect(await recordedCheck(db)).toBe(check);
      await writeFile(keyFile, original, { mode: 0o600 });
      expect((await nextNight(db, out)).exitCode).toBe(0);
    }));

  test("a run that stores only account data records its key with it, also when it fails after", () =>
    inWorkspace(async ({ db, out, keyFile }) => {
      expect((await nextNight(db, out)).exitCode).toBe(0);
      const next = "2f".repeat(32);
      await writeFile(keyFile, `${next}\n`);
      // The calls' listing fails (no batch of calls), the invoices are stored with their emails
      // hashed by the new key, then the balance is refused: the run fails before it returns.
      await expect(
        throughProxy(
          db,
          out,
          { "/user/api-calls": 503, "/user/payment/balance": 401 },
          { newSecretKey: true },
        ),
      ).rejects.toMatchObject({ code: "api.unauthorized" });
      expect(await recordedCheck(db)).toBe(new SecretBox(Buffer.from(next, "hex")).keyCheck);
    }));

  test("a database that records no key but holds sealed page tokens knows its key by them", () =>
    inWorkspace(async ({ db, out, keyFile }) => {
      expect((await nextNight(db, out, { limit: 300 })).exitCode).toBe(0);
      const check = await recordedCheck(db);
      await writeDb(db, "UPDATE internal.export_state SET secret_key_check = NULL");
      const original = await readFile(keyFile, "utf8");
      await writeFile(keyFile, OTHER_KEY);
      await expect(nextNight(db, out, { limit: 300 })).rejects.toMatchObject({ code: "warehouse.other_key" });
      await rm(keyFile);
      await expect(nextNight(db, out, { limit: 300 })).rejects.toMatchObject({ code: "warehouse.other_key" });
      await writeFile(keyFile, original, { mode: 0o600 });
      // Its key proven by the page token, the check is recorded at once: a run that fails before
      // its first batch (the listing refused, 401) leaves it recorded.
      await expect(throughProxy(db, out, { "/user/api-calls": 401 })).rejects.toMatchObject({
        code: "api.unauthorized",
      });
      expect(await recordedCheck(db)).toBe(check);
      expect((await nextNight(db, out, { limit: 300 })).summary.scan_mode).toBe("incremental");

      // Given up with --new-secret-key, the key it proved is replaced, and the run says so.
      await writeDb(db, "UPDATE internal.export_state SET secret_key_check = NULL");
      await writeFile(keyFile, OTHER_KEY);
      const replaced = await nextNight(db, out, { newSecretKey: true, limit: 300 });
      expect(replaced.summary.warnings).toEqual([expect.stringMatching(/^--new-secret-key: /)]);
    }));

  test("the demo goes on with a new key in its own database, and leaves a real one's key as it was", () =>
    inWorkspace(async ({ db, out, keyFile }) => {
      const demo = (...flags: string[]) =>
        runCli(["demo", "--db", db, "--out", out, "--calls", "300", "--no-operations", ...flags]);
      expect((await demo()).code).toBe(0);
      await rm(keyFile);
      const again = await demo();
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(/rows stored before this run keep the old key's hashes/);

      // A real export's database with its key in ZOO_USAGE_SECRET_KEY, at the demo's path.
      await inWorkspace(async (real) => {
        const env = { ZOO_API_TOKEN: token, ZOO_HOST: sim.url, ZOO_USAGE_SECRET_KEY: "6d".repeat(32) };
        const exportArgs = ["export", "--db", real.db, "--out", real.out, "--no-operations"];
        expect((await runCli(exportArgs, { env })).code).toBe(0);
        const check = await recordedCheck(real.db);
        const intoReal = await runCli(["demo", "--db", real.db, "--out", real.out, "--calls", "300"]);
        expect(intoReal.code).toBe(2);
        // The demo's account is an org, exported in org scope: refused as another scope's data.
        expect(intoReal.stderr).toMatch(/warehouse\.other_scope/);
        expect(await recordedCheck(real.db)).toBe(check);
        expect((await runCli(exportArgs, { env })).code).toBe(0);
      });
    }));
});
