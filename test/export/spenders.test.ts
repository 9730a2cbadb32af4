import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { listAllCalls } from "../helpers/apiTruth.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import { columnTypes, differing, ROW_LEVEL_VIEWS } from "../helpers/rowLevelViews.js";

/**
 * Who spent it: the tokens, service accounts and members the API lists are stored (never a secret),
 * every call is matched to its token as the last 4 characters allow, and spend per token label and
 * per member sums exactly to the total.
 */
let sim: RunningSimulator;
let admin: { id: string; token: string; orgId: string };
let member: { id: string; token: string };
beforeAll(async () => {
  sim = await startSimulator({
    seed: 41,
    calls: 4000,
    days: 30,
    users: 5,
    priceMode: "adversarial",
    priceAsString: true,
  });
  const found = sim.users.find((user) => user.orgRole === "admin");
  admin = { id: found?.id ?? "", token: found?.token ?? "", orgId: found?.orgId ?? "" };
  const other = sim.users.find((user) => user.orgRole === "member");
  member = { id: other?.id ?? "", token: other?.token ?? "" };
});
afterAll(() => sim.close());

interface Listed {
  id: string;
  label?: string | null;
  token?: string;
  user_id?: string;
  org_id?: string;
  name?: string;
  email?: string;
  role?: string;
}

/** Every item of a listing, paged with plain HTTP two at a time (so paging is exercised). */
async function listed(path: string, token: string): Promise<Listed[]> {
  const items: Listed[] = [];
  let pageToken: string | null = null;
  for (let page = 0; page < 100; page++) {
    const url = new URL(path, sim.url);
    url.searchParams.set("limit", "2");
    if (pageToken !== null) url.searchParams.set("page_token", pageToken);
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = (await response.json()) as { items: Listed[]; next_page: string | null };
    items.push(...body.items);
    if (body.items.length === 0 || body.next_page === null) return items;
    pageToken = body.next_page;
  }
  throw new Error(`${path} did not end`);
}

const lastFour = (text: string) => text.slice(-4);

/**
 * The views that match calls to tokens give the rows and types they gave matching every call
 * (test/export/rollupViews.test.ts compares them on an org's calls; here, on calls without an org
 * or without a token_last4).
 */
async function expectMatchedAsPerCall(db: string): Promise<void> {
  for (const view of ["call_token_match", "cost_per_token_label", "cost_per_service_account"]) {
    const rowLevel = ROW_LEVEL_VIEWS[view] ?? "";
    expect(await columnTypes(db, `SELECT * FROM ${view}`)).toEqual(await columnTypes(db, rowLevel));
    expect(await differing(db, `SELECT * FROM ${view}`, rowLevel), view).toEqual([]);
  }
}

describe("who spent it", () => {
  test("org scope: tokens, service accounts, members stored; each call matched; sums agree exactly", async () => {
    const { db, out, cleanup } = await tempWorkspace();
    try {
      const run = await exportOnce({
        baseUrl: sim.url,
        token: admin.token,
        flags: { db, out, limit: 500, scope: "org" },
      });
      expect(run.exitCode).toBe(0);
      const tokens = await listed("/user/api-tokens", admin.token);
      const accounts = await listed("/org/service-accounts", admin.token);
      const members = await listed("/org/members", admin.token);
      expect(run.summary.spenders).toEqual({
        status: "stored",
        api_tokens: tokens.length,
        service_accounts: accounts.length,
        org_members: members.length,
        skipped_listings: [],
        rejected: 0,
        seconds: expect.any(Number),
      });
      expect(
        await queryDb(
          db,
          "SELECT id::VARCHAR AS id, user_id::VARCHAR AS owner, label, token_last4 FROM api_tokens ORDER BY id",
        ),
      ).toEqual(
        tokens
          .map((t) => ({
            id: t.id,
            owner: t.user_id,
            label: t.label ?? null,
            token_last4: lastFour(t.token ?? ""),
          }))
          .sort((a, b) => (a.id < b.id ? -1 : 1)),
      );
      expect(
        await queryDb(
          db,
          "SELECT id::VARCHAR AS id, org_id::VARCHAR AS owner, label, token_last4 FROM service_accounts ORDER BY id",
        ),
      ).toEqual(
        accounts
          .map((t) => ({
            id: t.id,
            owner: t.org_id,
            label: t.label ?? null,
            token_last4: lastFour(t.token ?? ""),
          }))
          .sort((a, b) => (a.id < b.id ? -1 : 1)),
      );
      expect(
        await queryDb(db, "SELECT id::VARCHAR AS id, name, email, role FROM org_members ORDER BY id"),
      ).toEqual(
        members
          .map((m) => ({ id: m.id, name: m.name ?? null, email: m.email ?? null, role: m.role }))
          .sort((a, b) => (a.id < b.id ? -1 : 1)),
      );
      // Never the secret: no stored text holds a whole token of the admin's.
      const adminProfileTokens = (await listAllCalls(sim.url, admin.token)).map((call) => call.token);
      const stored = JSON.stringify(
        await queryDb(db, "SELECT * FROM api_tokens UNION ALL BY NAME SELECT * FROM service_accounts"),
      );
      for (const secret of new Set(adminProfileTokens)) expect(stored).not.toContain(secret);

      // The match, computed here from the listing and the token listings.
      const calls = await listAllCalls(sim.url, admin.token, "/org/api-calls");
      const expected = calls.map((call) => {
        const candidates = [
          ...tokens
            .filter((t) => t.user_id === call.user_id && lastFour(t.token ?? "") === lastFour(call.token))
            .map((t) => ({ kind: "api_token", id: t.id, label: t.label ?? null })),
          ...accounts
            .filter((s) => s.org_id === call.org_id && lastFour(s.token ?? "") === lastFour(call.token))
            .map((s) => ({ kind: "service_account", id: s.id, label: s.label ?? null })),
        ];
        const one = candidates.length === 1 ? candidates[0] : undefined;
        return {
          call_id: call.id,
          match_status:
            candidates.length === 1 ? "matched" : candidates.length > 1 ? "ambiguous" : "unmatched",
          token_kind: one?.kind ?? null,
          token_id: one?.id ?? null,
          token_label: one?.label ?? null,
        };
      });
      const matched = await queryDb(
        db,
        "SELECT id::VARCHAR AS call_id, match_status, token_kind, token_id::VARCHAR AS token_id, token_label FROM call_token_match ORDER BY created_at, id",
      );
      expect(matched).toEqual(expected);
      const statuses = new Set(expected.map((row) => `${row.match_status} ${row.token_kind}`));
      expect(statuses).toEqual(
        new Set(["matched api_token", "matched service_account", "ambiguous null", "unmatched null"]),
      );

      // Every group sums to the total, exactly (DECIMAL text, no float anywhere).
      const [sums] = await queryDb(
        db,
        `SELECT (SELECT sum(price_usd) FROM api_calls)::VARCHAR AS total,
           (SELECT sum(cost_usd) FROM cost_per_token_label)::VARCHAR AS per_label,
           (SELECT sum(cost_usd) FROM cost_per_member)::VARCHAR AS per_member,
           (SELECT sum(calls) FROM cost_per_token_label)::INTEGER AS label_calls,
           (SELECT count(*) FROM api_calls)::INTEGER AS calls`,
      );
      expect(sums?.per_label).toBe(sums?.total);
      expect(sums?.per_member).toBe(sums?.total);
      expect(sums?.label_calls).toBe(sums?.calls);
      const perMember = await queryDb(
        db,
        "SELECT user_id::VARCHAR AS user_id, name, role, member_known FROM cost_per_member",
      );
      expect(perMember.every((row) => row.member_known === true)).toBe(true);
      // Every member who made calls, each known from the listing; the org's service accounts are
      // listed as members too (role service_account) and make calls under a person's user id.
      expect(perMember.length).toBe(members.filter((member) => member.role !== "service_account").length);
      const [accountCalls] = await queryDb(
        db,
        "SELECT sum(calls)::INTEGER AS n FROM cost_per_service_account",
      );
      expect(accountCalls?.n).toBe(expected.filter((row) => row.token_kind === "service_account").length);
    } finally {
      await cleanup();
    }
  });

  test("user scope lists the user's own tokens only; --token-column drop leaves every call unmatched", async () => {
    const { db, out, cleanup } = await tempWorkspace();
    try {
      const run = await exportOnce({ baseUrl: sim.url, token: member.token, flags: { db, out, limit: 500 } });
      expect(run.exitCode).toBe(0);
      expect(run.summary.spenders).toMatchObject({
        status: "stored",
        service_accounts: 0,
        org_members: 0,
        skipped_listings: [],
      });
      const [counts] = await queryDb(
        db,
        `SELECT (SELECT count(*) FROM api_tokens WHERE user_id::VARCHAR = '${member.id}')::INTEGER AS own,
           (SELECT count(*) FROM api_tokens)::INTEGER AS all_tokens,
           (SELECT count(*) FILTER (WHERE match_status = 'matched') FROM call_token_match)::INTEGER AS matched`,
      );
      expect(counts?.own).toBe(counts?.all_tokens);
      expect(Number(counts?.matched)).toBeGreaterThan(0);
      await expectMatchedAsPerCall(db);
    } finally {
      await cleanup();
    }
    const dropped = await tempWorkspace();
    try {
      const flags = { db: dropped.db, out: dropped.out, limit: 500, tokenColumn: "drop" };
      expect((await exportOnce({ baseUrl: sim.url, token: member.token, flags })).exitCode).toBe(0);
      const statuses = await queryDb(dropped.db, "SELECT DISTINCT match_status FROM call_token_match");
      expect(statuses).toEqual([{ match_status: "unmatched" }]);
      expect(await queryDb(dropped.db, "SELECT count(token_last4)::INTEGER AS n FROM api_calls")).toEqual([
        { n: 0 },
      ]);
      await expectMatchedAsPerCall(dropped.db);
    } finally {
      await dropped.cleanup();
    }
  });

  test("a user without an org: the calls, none with an org_id, match the user's tokens", async () => {
    const loner = sim.users.find((user) => user.orgId === null);
    const { db, out, cleanup } = await tempWorkspace();
    try {
      const flags = { db, out, limit: 500 };
      expect((await exportOnce({ baseUrl: sim.url, token: loner?.token ?? "", flags })).exitCode).toBe(0);
      const [counts] = await queryDb(
        db,
        `SELECT count(*) FILTER (WHERE match_status = 'matched')::INTEGER AS matched,
           count(org_id)::INTEGER AS with_org
         FROM call_token_match`,
      );
      await expectMatchedAsPerCall(db);
      expect(counts).toEqual({ matched: expect.any(Number), with_org: 0 });
      expect(Number(counts?.matched)).toBeGreaterThan(0);
    } finally {
      await cleanup();
    }
  });

  test("members' emails follow --email-column: hashed alike in org_members and api_calls", async () => {
    const { db, out, cleanup } = await tempWorkspace();
    try {
      const flags = { db, out, limit: 500, scope: "org", emailColumn: "hash", operations: false };
      expect((await exportOnce({ baseUrl: sim.url, token: admin.token, flags })).exitCode).toBe(0);
      const rows = await queryDb(
        db,
        `SELECT m.email AS member_email, any_value(c.email) AS call_email FROM org_members AS m
         JOIN api_calls AS c ON c.user_id = m.id GROUP BY m.email`,
      );
      expect(rows.length).toBeGreaterThanOrEqual(3);
      for (const row of rows) {
        expect(row.member_email).toBe(row.call_email);
        expect(String(row.member_email)).not.toContain("@");
      }
    } finally {
      await cleanup();
    }
  });
});
