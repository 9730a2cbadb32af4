import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { listAllCalls, type TruthCall, toMicros } from "../helpers/apiTruth.js";
import { runCli } from "../helpers/cli.js";
import { exportOnce, queryDb, tempWorkspace, writeDb } from "../helpers/exportHarness.js";

/**
 * `export --scope org` against the simulator's org (users 1 to 3 and maybe 4, user 1 its admin):
 * the warehouse equals, call by call, what GET /org/api-calls lists with plain HTTP, resumes after
 * an interruption, and refuses to mix scopes or orgs.
 */
let sim: RunningSimulator;
let admin: string;
let orgId: string;
let member: string;
let outsider: string;
beforeAll(async () => {
  sim = await startSimulator({
    seed: 33,
    calls: 5000,
    days: 40,
    users: 5,
    priceMode: "adversarial",
    priceAsString: true,
  });
  const adminUser = sim.users.find((user) => user.orgRole === "admin");
  admin = adminUser?.token ?? "";
  orgId = adminUser?.orgId ?? "";
  member = sim.users.find((user) => user.orgRole === "member")?.token ?? "";
  outsider = sim.users.find((user) => user.orgId === null)?.token ?? "";
});
afterAll(() => sim.close());

const LIMIT = 300;

/** A timestamp as whole microseconds of text, whatever its fraction digits. */
function micros(text: string): string {
  const match = /^(.*?)(?:\.(\d+))?Z$/.exec(text);
  return `${match?.[1] ?? text}.${(match?.[2] ?? "").padEnd(9, "0").slice(0, 6)}Z`;
}

/** One call as compared: what the warehouse holds, in the form the API's listing gives it. */
function shape(call: { id: string; user_id: string; created_at: string; price: string | null }) {
  return {
    id: call.id,
    user_id: call.user_id,
    created_at: micros(call.created_at),
    price: call.price === null ? null : toMicros(call.price),
  };
}

async function storedCalls(db: string) {
  const rows = await queryDb(
    db,
    `SELECT id::VARCHAR AS id, user_id::VARCHAR AS user_id,
       strftime(created_at, '%Y-%m-%dT%H:%M:%S.%fZ') AS created_at, price_usd::VARCHAR AS price
     FROM api_calls ORDER BY created_at, id`,
  );
  return rows.map((row) =>
    shape(row as { id: string; user_id: string; created_at: string; price: string | null }),
  );
}

const expected = (calls: readonly TruthCall[]) => calls.map(shape);

describe("export --scope org", () => {
  test("the simulator's org: three members or more, one admin; others are refused", async () => {
    expect(sim.users.filter((user) => user.orgId === orgId).length).toBeGreaterThanOrEqual(3);
    const status = async (token: string, path: string) =>
      (await fetch(new URL(path, sim.url), { headers: { authorization: `Bearer ${token}` } })).status;
    expect(await status(admin, "/org")).toBe(200);
    expect(await status(member, "/org/api-calls")).toBe(403);
    expect(await status(outsider, "/org/api-calls")).toBe(404);
    // The org listing is the members' own listings merged: the same calls, no others.
    const orgCalls = await listAllCalls(sim.url, admin, "/org/api-calls");
    const members = sim.users.filter((user) => user.orgId === orgId);
    const own = (await Promise.all(members.map((user) => listAllCalls(sim.url, user.token)))).flat();
    expect(orgCalls.map((call) => call.id).sort()).toEqual(own.map((call) => call.id).sort());
    expect(new Set(orgCalls.map((call) => call.user_id)).size).toBe(members.length);
  });

  test("equals GET /org/api-calls call by call, and a later run is incremental", async () => {
    const { db, out, cleanup } = await tempWorkspace();
    try {
      const flags = { db, out, limit: LIMIT, scope: "org" };
      const first = await exportOnce({ baseUrl: sim.url, token: admin, flags });
      expect(first.exitCode).toBe(0);
      const truth = await listAllCalls(sim.url, admin, "/org/api-calls");
      expect(first.summary.records_new).toBe(truth.length);
      expect(await storedCalls(db)).toEqual(expected(truth));
      expect(await queryDb(db, "SELECT scope, owner_id FROM internal.warehouse_identity")).toEqual([
        { scope: "org", owner_id: orgId },
      ]);
      // The same views: their totals are the calls' sum, exactly.
      const [sums] = await queryDb(
        db,
        "SELECT (SELECT sum(cost_usd) FROM cost_per_day)::VARCHAR AS per_day, (SELECT sum(price_usd) FROM api_calls)::VARCHAR AS total",
      );
      expect(sums?.per_day).toBe(sums?.total);
      // GET /async/operations/{id} shows the caller's own operations only: the other members' are
      // stored as not found (once: they are not candidates again), and the run still succeeds.
      const adminId = sim.users.find((user) => user.orgRole === "admin")?.id;
      const operations = await queryDb(
        db,
        `SELECT (c.user_id::VARCHAR = '${adminId}') AS own, o.fetch_status, count(*)::INTEGER AS n
         FROM async_operations AS o JOIN api_calls AS c USING (id) GROUP BY ALL ORDER BY ALL`,
      );
      const kinds = operations.map(({ own, fetch_status }) => `${String(own)} ${String(fetch_status)}`);
      expect(kinds).toContain("false not_found");
      expect(kinds).toContain("true found");
      expect(kinds).not.toContain("false found");

      sim.clock.advance(6 * 3_600_000);
      const second = await exportOnce({ baseUrl: sim.url, token: admin, flags });
      expect(second.exitCode).toBe(0);
      expect(second.summary.scan_mode).toBe("incremental");
      expect(second.summary.operations?.not_found ?? 0).toBeLessThan(
        Number(operations.find((row) => row.own === false)?.n),
      );
      const later = await listAllCalls(sim.url, admin, "/org/api-calls");
      expect(later.length).toBeGreaterThan(truth.length);
      expect(await storedCalls(db)).toEqual(expected(later));
    } finally {
      await cleanup();
    }
  });

  test("an interrupted org export resumes where it stopped and ends equal to the listing", async () => {
    const { db, out, cleanup } = await tempWorkspace();
    try {
      const flags = { db, out, limit: LIMIT, batchRecords: 600, scope: "org", operations: false };
      let pages = 0;
      // The fifth page request is held: two batches are committed by then.
      const gate = sim.holdRequests(({ path }) => path === "/org/api-calls" && ++pages === 5);
      const controller = new AbortController();
      const running = exportOnce({ baseUrl: sim.url, token: admin, flags, signal: controller.signal });
      await gate.reached;
      controller.abort();
      gate.release();
      const stopped = await running;
      expect(stopped.summary.status).toBe("interrupted");
      const kept = (await storedCalls(db)).length;
      expect(kept).toBeGreaterThan(0);

      const resumed = await exportOnce({ baseUrl: sim.url, token: admin, flags });
      expect(resumed.exitCode).toBe(0);
      expect(resumed.summary.scan_mode).toBe("resume");
      const truth = await listAllCalls(sim.url, admin, "/org/api-calls");
      expect(resumed.summary.records_new).toBe(truth.length - kept);
      expect(await storedCalls(db)).toEqual(expected(truth));
    } finally {
      await cleanup();
    }
  });

  test("a warehouse holds one scope and one owner", async () => {
    const { db, out, cleanup } = await tempWorkspace();
    try {
      const user = await exportOnce({ baseUrl: sim.url, token: admin, flags: { db, out, limit: LIMIT } });
      expect(user.exitCode).toBe(0);
      const mixed = exportOnce({
        baseUrl: sim.url,
        token: admin,
        flags: { db, out, limit: LIMIT, scope: "org" },
      });
      await expect(mixed).rejects.toMatchObject({
        code: "warehouse.other_scope",
        message: expect.stringMatching(
          /holds the data of user scope \(user [0-9a-f-]{36}\), but this run exports org scope \(org /,
        ),
        hint: expect.stringContaining("another --db"),
      });
      // The CLI: exit 2, the stored scope and owner named, and what to do.
      const cli = await runCli(["export", "--db", db, "--out", out, "--scope", "org"], {
        env: { ZOO_API_TOKEN: admin, ZOO_HOST: sim.url },
      });
      expect(cli.code, cli.stderr).toBe(2);
      expect(cli.stderr).toMatch(/holds the data of user scope \(user [0-9a-f-]{36}\)/);
      expect(cli.stderr).toMatch(/hint: .*another --db/);
      const org = await tempWorkspace();
      try {
        await exportOnce({
          baseUrl: sim.url,
          token: admin,
          flags: { db: org.db, out: org.out, limit: LIMIT, scope: "org" },
        });
        const back = exportOnce({
          baseUrl: sim.url,
          token: admin,
          flags: { db: org.db, out: org.out, limit: LIMIT },
        });
        await expect(back).rejects.toMatchObject({ code: "warehouse.other_scope" });
        // Another org's admin: its org id is not the stored one.
        await writeDb(
          org.db,
          "UPDATE internal.warehouse_identity SET owner_id = '00000000-0000-4000-8000-000000000000'",
        );
        const other = exportOnce({
          baseUrl: sim.url,
          token: admin,
          flags: { db: org.db, out: org.out, limit: LIMIT, scope: "org" },
        });
        await expect(other).rejects.toMatchObject({ code: "warehouse.other_owner" });
      } finally {
        await org.cleanup();
      }
      // A member who is not an admin: the API's refusal, said as such.
      const refused = exportOnce({
        baseUrl: sim.url,
        token: member,
        flags: { db: `${db}.2`, out: `${out}2`, scope: "org" },
      });
      await expect(refused).rejects.toMatchObject({
        code: "api.forbidden",
        message: expect.stringContaining("--scope org needs the token of an org admin"),
      });
    } finally {
      await cleanup();
    }
  });
});
