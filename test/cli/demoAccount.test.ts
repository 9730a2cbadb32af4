import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { simulatorOptionsOf } from "../../src/cli/simAction.js";
import { runSimulator } from "../../src/commands/simulate.js";
import { createUsers } from "../../src/sim/users.js";
import { runCli } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/**
 * The demo is an account of its own, in a folder of its own, and teaches every view: `npm start`
 * then the `sim` banner's own command must not mix two histories in one warehouse.
 */

/** `zoo-usage sim`'s flags at their defaults (as commander fills them in), with a small history. */
const SIM_DEFAULT_FLAGS = {
  host: "127.0.0.1",
  port: 0,
  seed: 1,
  calls: 300,
  days: 90,
  users: 4,
  priceMode: "realistic",
  invoiceItems: "per-month",
  creditsOnInvoice: "none",
} as const;

/** The `Try:` line of the banner, as the environment and arguments a shell would run it with. */
function bannerCommand(banner: string): { env: Record<string, string>; args: string[] } {
  const line = /^Try:\n\s+(.+)$/m.exec(banner)?.[1];
  if (line === undefined) throw new Error(`no Try: line in: ${banner}`);
  const words = line.trim().split(/\s+/);
  const env = Object.fromEntries(
    words.filter((word) => /^[A-Z_]+=/.test(word)).map((word) => word.split(/=(.*)/s).slice(0, 2)),
  );
  const command = words.filter((word) => !/^[A-Z_]+=/.test(word));
  expect(command[0]).toBe("zoo-usage");
  return { env, args: command.slice(1) };
}

describe("the demo", () => {
  let workspace: Awaited<ReturnType<typeof tempWorkspace>>;
  const demoDb = () => path.join(workspace.dir, "zoo-usage-demo/zoo_usage.duckdb");

  beforeAll(async () => {
    workspace = await tempWorkspace();
    // `npm start`, with a smaller history: its own folder, by default.
    const demo = await runCli(["demo", "--calls", "4000", "--no-summary"], { cwd: workspace.dir });
    expect(demo.code, demo.stderr).toBe(0);
  });
  afterAll(() => workspace.cleanup());

  test("has every view's rows: tokens and service accounts, members in org scope, invoices, a runway", async () => {
    const [scope] = await queryDb(demoDb(), "SELECT scope FROM internal.warehouse_identity");
    expect(scope?.scope).toBe("org");
    const labels = await queryDb(demoDb(), "SELECT token_kind, token_label FROM cost_per_token_label");
    expect(labels.length).toBeGreaterThanOrEqual(3);
    expect(labels.filter((row) => row.token_kind === "service_account").length).toBeGreaterThanOrEqual(1);
    const members = await queryDb(demoDb(), "SELECT role FROM cost_per_member");
    expect(members.length).toBeGreaterThanOrEqual(3);
    const statuses = await queryDb(demoDb(), "SELECT DISTINCT status FROM invoices ORDER BY status");
    expect(statuses.length).toBeGreaterThanOrEqual(3);
    const [runway] = await queryDb(demoDb(), "SELECT runway_days FROM credit_runway");
    expect(Number(runway?.runway_days)).toBeGreaterThan(0);
    expect(Number(runway?.runway_days)).toBeLessThan(31);
  });

  test("is an account no `sim` seed serves, and the sim banner's command is refused in its folder", async () => {
    const lines: string[] = [];
    const close = await runSimulator(
      simulatorOptionsOf(SIM_DEFAULT_FLAGS, () => new Date()),
      (text) => lines.push(text),
    );
    try {
      const banner = lines.join("\n");
      const { env, args } = bannerCommand(banner);
      const [owner] = await queryDb(demoDb(), "SELECT owner_id FROM internal.warehouse_identity");
      expect(banner).not.toContain(String(owner?.owner_id));
      const before = await readFile(demoDb());
      const refused = await runCli(
        [...args, "--db", demoDb(), "--out", path.join(path.dirname(demoDb()), "parquet")],
        {
          env,
          cwd: workspace.dir,
        },
      );
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(
        /holds the data of org scope \(org [0-9a-f-]{36}\), but this run exports user scope/,
      );
      expect((await readFile(demoDb())).equals(before)).toBe(true);
      // As printed, in the same folder, it goes to ./zoo-usage/, apart from the demo's.
      const apart = await runCli([...args, "--no-operations"], { env, cwd: workspace.dir });
      expect(apart.code, apart.stderr).toBe(0);
      expect((await stat(path.join(workspace.dir, "zoo-usage/zoo_usage.duckdb"))).isFile()).toBe(true);
      expect((await readFile(demoDb())).equals(before)).toBe(true);
    } finally {
      await close();
    }
  });
});

test("no seed's users share an id with the demo's", () => {
  const demo = createUsers(1, 4, { accountIds: "demo" });
  const ids = new Set(demo.flatMap((user) => [user.id, user.orgId ?? user.id]));
  expect(ids.size).toBe(5);
  for (const seed of [0, 1, 2, 3, 42, 1000]) {
    const served = createUsers(seed, 8);
    expect(served.filter((user) => ids.has(user.id) || ids.has(user.orgId ?? user.id))).toEqual([]);
  }
});
