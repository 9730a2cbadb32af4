import { randomInt } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { runCli, spawnCli, whileRunning } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import { micros, type OrgTruth, orgTruth } from "../helpers/orgTruth.js";
import { microsOf, readDataset } from "../helpers/parquetDataset.js";

/**
 * The export killed with SIGKILL (no chance to clean up), which only a process of its own can be,
 * then run again until it finishes, in user scope and in org scope. The delays come from a seed
 * printed on failure (CRASH_SEED reproduces a run). The clean runs whose duration sets the kill
 * window are processes too, so that the window spans a process's start-up as the killed runs' do.
 */
const seed = Number(process.env.CRASH_SEED ?? randomInt(1_000_000));
const log = (line: string) => {
  if (process.env.CRASH_DEBUG) console.log(line);
};

/**
 * User scope: kills at random moments, and the result must equal one uninterrupted run: same rows,
 * same prices, same view totals, same Parquet rows, same operations.
 */
describe("user scope", () => {
  /** Rounds of kills: 3 keep `npm test` quick; `npm run test:long` runs 25. */
  const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);

  let sim: RunningSimulator;
  beforeAll(async () => {
    // About 3,500 calls for the user: five transactions of 700 and their Parquet partitions for the
    // kills to land in; more calls only make each round longer.
    sim = await startSimulator({ seed: 21, calls: 7000, days: 60, users: 2, priceMode: "adversarial" });
  });
  afterAll(() => sim.close());

  /** A kill delay in [0, span): a small LCG, the test's own randomness, reproducible from the seed. */
  function nextDelay(state: { value: number }, spanMs: number): number {
    state.value = (state.value * 1_103_515_245 + 12_345) % 2 ** 31;
    return state.value % Math.max(1, Math.round(spanMs));
  }

  async function snapshot(db: string, out: string) {
    const rows = await queryDb(
      db,
      "SELECT id::VARCHAR AS id, price_usd::VARCHAR AS price, updated_at::VARCHAR AS updated FROM api_calls ORDER BY id",
    );
    const views = await queryDb(
      db,
      "SELECT (SELECT sum(cost_usd)::VARCHAR FROM cost_per_day) AS per_day, (SELECT sum(cost_usd)::VARCHAR FROM cost_per_endpoint) AS per_endpoint, (SELECT count(*)::INTEGER FROM rejects) AS rejects",
    );
    const parquet = (await readDataset(path.join(out, "api_calls"))).rows
      .map((row) => `${String(row.id)} ${String(microsOf(row.price_usd))}`)
      .sort();
    const operations = await queryDb(
      db,
      "SELECT id::VARCHAR AS id, fetch_status, operation_type, status FROM async_operations ORDER BY id",
    );
    const operationsParquet = (await readDataset(path.join(out, "async_operations"))).rows
      .map((row) => `${String(row.id)} ${String(row.status)}`)
      .sort();
    return { rows, views, parquet, operations, operationsParquet };
  }

  const token = () => sim.users[0]?.token ?? "";
  const argsFor = (workspace: { db: string; out: string }) => [
    ...["export", "--db", workspace.db, "--out", workspace.out],
    ...["--limit", "200", "--batch-records", "700", "--no-summary", "--operations", "all"],
  ];
  // The clean run, then each round a test of its own: a round is a few runs, so that no test takes
  // long enough on a busy machine to meet the per-test time limit.
  let reference: { cleanRunMs: number; expected: Awaited<ReturnType<typeof snapshot>> } | undefined;
  const state = { value: seed };
  let totalKills = 0;

  test(`one uninterrupted run: the reference, whose duration sets the kill window (seed ${seed})`, async () => {
    const clean = await tempWorkspace();
    const started = Date.now();
    expect(
      (await spawnCli(argsFor(clean), { env: { ZOO_API_TOKEN: token(), ZOO_HOST: sim.url } })).code,
    ).toBe(0);
    const cleanRunMs = Date.now() - started;
    const expected = await snapshot(clean.db, clean.out);
    expect(expected.rows.length).toBeGreaterThan(3000);
    reference = { cleanRunMs, expected };
    await clean.cleanup();
  });

  test.each(Array.from({ length: ROUNDS }, (_, round) => round))(
    `round %i: SIGKILL at random moments, then re-run until done, equals the clean run (seed ${seed})`,
    async (round) => {
      if (reference === undefined) throw new Error("the clean run failed: nothing to compare with");
      const { cleanRunMs, expected } = reference;
      const env = { ZOO_API_TOKEN: token(), ZOO_HOST: sim.url };
      const crashed = await tempWorkspace();
      const args = argsFor(crashed);
      let kills = 0;
      for (let attempt = 0; ; attempt++) {
        expect(attempt, `round ${round} did not finish (seed ${seed})`).toBeLessThan(40);
        // Kills land anywhere from process start to past the end of a whole run: start-up, fetch,
        // mid-transaction, Parquet writes and renames, the final checkpoint.
        // The first attempts of a round are almost always killed; later ones may run to the end.
        const delay = nextDelay(state, cleanRunMs * (attempt < 3 ? 0.6 : 1.2));
        const result = await spawnCli(args, {
          env,
          onSpawn: (child) => {
            setTimeout(() => child.kill("SIGKILL"), delay);
          },
        });
        log(`attempt ${attempt}: delay ${delay} ms of ${cleanRunMs} -> ${result.signal ?? result.code}`);
        if (result.signal === "SIGKILL") {
          kills += 1;
          continue;
        }
        expect(result.code, `${result.stderr} (seed ${seed})`).toBe(0);
        break;
      }
      const actual = await snapshot(crashed.db, crashed.out);
      expect(actual.rows, `round ${round}, ${kills} kills, seed ${seed}`).toEqual(expected.rows);
      expect(actual.views, `seed ${seed}`).toEqual(expected.views);
      expect(actual.parquet, `seed ${seed}`).toEqual(expected.parquet);
      expect(actual.operations, `seed ${seed}`).toEqual(expected.operations);
      expect(actual.operationsParquet, `seed ${seed}`).toEqual(expected.operationsParquet);
      totalKills += kills;
      await crashed.cleanup();
    },
  );

  test(`some kill landed before its run ended: rounds whose kills all came late would prove nothing (seed ${seed})`, () => {
    expect(totalKills, `seed ${seed}`).toBeGreaterThan(0);
    console.log(`crash test: ${totalKills} kills over ${ROUNDS} rounds (seed ${seed})`);
  });
});

/**
 * `export --scope org`: each round kills one run at a random moment and the next one in an account
 * step (tokens, members and service accounts, then invoices, then the balance, all after the scan),
 * then runs it to the end. After every kill the org scope and owner are intact, no call is stored
 * twice, and each account table holds a whole listing or none yet (an invoice all its lines); the
 * last run's warehouse equals the org's listings, GET /org/api-calls call by call.
 */
describe("org scope", () => {
  /** Rounds of kills: 1 keeps `npm test` quick; `npm run test:long` runs 25. */
  const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 1);

  /**
   * The account steps' requests, in the order a run makes them; the last listing before each store
   * (members: tokens, members and service accounts; invoices) twice, so kills land there more often.
   */
  const ACCOUNT_PATHS = [
    "/user/api-tokens",
    "/org/service-accounts",
    "/org/members",
    "/org/members",
    "/org/payment/invoices",
    "/org/payment/invoices",
    "/org/payment/balance",
  ] as const;

  let sim: RunningSimulator;
  let admin: string;
  let orgId: string;
  beforeAll(async () => {
    // 4 users: an org of 3 (user 1 its admin) and one user outside it. 400 days: a dozen invoices,
    // so storing them takes long enough for a kill to land inside.
    sim = await startSimulator({
      seed: 27,
      calls: 2000,
      days: 400,
      users: 4,
      priceMode: "adversarial",
      priceAsString: true,
      // Every priced call on an invoice, credits as a line: a small org's spend stays under its
      // monthly credits, which would leave it without invoices to kill the export in.
      creditsOnInvoice: "line",
    });
    const adminUser = sim.users.find((user) => user.orgRole === "admin");
    admin = adminUser?.token ?? "";
    orgId = adminUser?.orgId ?? "";
  });
  afterAll(() => sim.close());

  /** A random number in [0, span): mulberry32, the test's own randomness, reproducible from the seed. */
  function next(state: { value: number }, span: number): number {
    state.value = (state.value + 0x6d2b79f5) | 0;
    let t = state.value;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    return Math.floor(unit * Math.max(1, Math.round(span)));
  }

  const column = (rows: Record<string, unknown>[]) => rows.map((row) => String(row.v));

  /**
   * What a warehouse holds, read through one read-only connection, in the truth's form; null when a
   * kill came before the scope claim (no database yet, or one not past start-up).
   */
  async function readWarehouse(db: string) {
    if (!existsSync(db)) return null;
    const instance = await DuckDBInstance.create(db, { access_mode: "READ_ONLY" });
    const connection = await instance.connect();
    const query = async (sql: string) =>
      (await connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
    try {
      const tables = new Set(
        column(await query("SELECT schema_name || '.' || table_name AS v FROM duckdb_tables()")),
      );
      if (!tables.has("internal.warehouse_identity")) return null;
      const identity = await query("SELECT scope, owner_id FROM internal.warehouse_identity");
      if (identity[0]?.scope === null || identity[0]?.scope === undefined) {
        // Killed in start-up, before the scope claim: no call may be stored yet.
        const [stored] = tables.has("main.api_calls")
          ? await query("SELECT count(*)::INTEGER AS n FROM api_calls")
          : [{ n: 0 }];
        expect(stored?.n, `calls stored before the scope claim in ${db}`).toBe(0);
        return null;
      }
      const invoices = await query(
        `SELECT i.id || ' ' || count(l.invoice_id) || ' ' || coalesce(string_agg(l.amount::VARCHAR, ',' ORDER BY l.line_number), '') || ' ' || i.total::VARCHAR AS v
         FROM invoices AS i LEFT JOIN invoice_lines AS l ON l.invoice_id = i.id GROUP BY i.id, i.total ORDER BY v`,
      );
      const balances = await query(
        `SELECT monthly_api_credits_remaining_monetary_value::VARCHAR || ' ' || stable_api_credits_remaining_monetary_value::VARCHAR AS v
         FROM balance_snapshots ORDER BY taken_at, run_id`,
      );
      return {
        identity,
        calls: column(await query("SELECT id::VARCHAR AS v FROM api_calls ORDER BY v")),
        apiTokens: column(await query("SELECT id::VARCHAR AS v FROM api_tokens ORDER BY v")),
        serviceAccounts: column(await query("SELECT id::VARCHAR AS v FROM service_accounts ORDER BY v")),
        members: column(await query("SELECT id::VARCHAR || ' ' || role AS v FROM org_members ORDER BY v")),
        // Money as the truth's: DECIMAL text to micro-dollars.
        invoices: column(invoices).map((line) => {
          const [id, count, amounts, total] = line.split(" ");
          const lineMicros = (amounts ?? "")
            .split(",")
            .filter((amount) => amount !== "")
            .map(micros);
          return `${id} ${count} ${lineMicros.join(",")} ${micros(total)}`;
        }),
        // Lines without their invoice, and snapshots of a run the runs table does not know.
        orphans: column(
          await query(
            `SELECT (SELECT count(*) FROM invoice_lines WHERE invoice_id NOT IN (SELECT id FROM invoices))
               || ' ' || (SELECT count(*) FROM balance_snapshots WHERE run_id NOT IN (SELECT run_id FROM runs)) AS v`,
          ),
        ),
        balances: column(balances).map((pair) => pair.split(" ").map(micros).join(" ")),
        rejects: column(await query("SELECT reason AS v FROM rejects")),
      };
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }
  type Stored = NonNullable<Awaited<ReturnType<typeof readWarehouse>>>;

  /**
   * What holds after any kill: the scope and owner row, no duplicate call, and each account table
   * either as the API lists it or empty (not stored yet); an invoice never without all its lines.
   */
  function expectConsistent(stored: Stored | null, truth: OrgTruth, where: string) {
    if (stored === null) return;
    expect(stored.identity, where).toEqual([{ scope: "org", owner_id: orgId }]);
    expect(new Set(stored.calls).size, `duplicate calls: ${where}`).toBe(stored.calls.length);
    expect(
      stored.calls.filter((id) => !truth.calls.includes(id)),
      where,
    ).toEqual([]);
    // Each directory table is its own source, stored a batch at a time (these listings fit in one):
    // each is as the API lists it, or empty while its source has not committed yet.
    const directory = [stored.apiTokens, stored.serviceAccounts, stored.members];
    const listed = [truth.apiTokens, truth.serviceAccounts, truth.members];
    directory.forEach((table, k) => {
      if (table.length > 0) expect(table, where).toEqual(listed[k]);
    });
    if (stored.invoices.length > 0) expect(stored.invoices, where).toEqual(truth.invoices);
    expect(stored.orphans, where).toEqual(["0 0"]);
    for (const balance of stored.balances) expect(balance, where).toBe(truth.remaining);
    expect(stored.rejects, where).toEqual([]);
  }

  /** The end state: consistent, and every table equal to what the API lists. */
  async function expectEqualToApi(workspace: { db: string; out: string }, truth: OrgTruth, where: string) {
    const stored = await readWarehouse(workspace.db);
    expect(stored, where).not.toBeNull();
    expectConsistent(stored, truth, where);
    expect(stored?.calls, where).toEqual(truth.calls);
    expect(stored?.apiTokens, where).toEqual(truth.apiTokens);
    expect(stored?.invoices, where).toEqual(truth.invoices);
    expect(stored?.balances.length, where).toBeGreaterThan(0);
    const parquet = (await readDataset(path.join(workspace.out, "api_calls"))).rows.map((row) =>
      String(row.id),
    );
    expect(parquet.sort(), `Parquet: ${where}`).toEqual(truth.calls);
  }

  /** Runs the export and kills it at a random moment `delayMs` after it starts; true when killed. */
  async function killAtRandom(args: string[], env: Record<string, string>, delayMs: number, where: string) {
    const result = await spawnCli(args, {
      env,
      timeoutMs: 60_000,
      onSpawn: (child) => {
        setTimeout(() => child.kill("SIGKILL"), delayMs);
      },
    });
    if (result.signal !== "SIGKILL") expect(result.code, `${where}: ${result.stderr}`).toBe(0);
    return result.signal === "SIGKILL";
  }

  /**
   * Runs the export and kills it in the account steps: the request for `target` is held (for a
   * listing, its last page: the one asked with a page token, an empty page in the simulator; the
   * steps before it are done), then the process dies there (`afterMs` < 0) or `afterMs` after the
   * answer (while the step stores what it listed, or in a later step). True when killed.
   */
  async function killInAccountStep(
    args: string[],
    env: Record<string, string>,
    target: string,
    afterMs: number,
    where: string,
  ) {
    const lastPage = target !== "/org/payment/balance";
    const gate = sim.holdRequests(
      ({ path: requested, query }) => requested === target && (!lastPage || query.has("page_token")),
    );
    const run = spawnCli(args, {
      env,
      timeoutMs: 60_000,
      onSpawn: (child) => {
        void gate.reached.then(() => {
          if (afterMs < 0) child.kill("SIGKILL");
          gate.release();
          if (afterMs >= 0) setTimeout(() => child.kill("SIGKILL"), afterMs);
        });
      },
    });
    try {
      await whileRunning(gate.reached, run, `GET ${target}`);
    } finally {
      gate.release();
    }
    const result = await run;
    if (result.signal !== "SIGKILL") expect(result.code, `${where}: ${result.stderr}`).toBe(0);
    // Killed while its request was held: it cannot have ended on its own.
    if (afterMs < 0) expect(result.signal, where).toBe("SIGKILL");
    return result.signal === "SIGKILL";
  }

  const argsFor = (workspace: { db: string; out: string }) => [
    ...["export", "--scope", "org", "--db", workspace.db, "--out", workspace.out],
    ...["--limit", "100", "--batch-records", "300", "--no-summary"],
  ];
  const state = { value: seed };
  const aim = () => ({
    target: ACCOUNT_PATHS[next(state, ACCOUNT_PATHS.length)] ?? ACCOUNT_PATHS[0],
    // One kill in four while the request is held; the others after its answer: half within 20 ms
    // (while the step stores what it listed), half up to 100 ms (a later step, the operations).
    afterMs: [-1, next(state, 20), next(state, 20), next(state, 100)][next(state, 4)] ?? -1,
  });
  // The clean run, then each round a test of its own, so that no test takes long enough on a busy
  // machine to meet the per-test time limit.
  let reference: { truth: Awaited<ReturnType<typeof orgTruth>>; cleanRunMs: number } | undefined;
  let randomKills = 0;
  let accountKills = 0;

  test(`one uninterrupted run equals the API; a kill in its account steps leaves it so (seed ${seed})`, async () => {
    const truth = await orgTruth(sim.url, admin);
    // The listings the checks rely on are not empty: each kill has something to break.
    expect(truth.calls.length).toBeGreaterThan(500);
    // The 3 users and the org's 2 service accounts (role service_account).
    expect(truth.members).toHaveLength(5);
    expect(truth.serviceAccounts.length).toBeGreaterThan(0);
    expect(truth.invoices.length).toBeGreaterThanOrEqual(10);
    const env = { ZOO_API_TOKEN: admin, ZOO_HOST: sim.url };
    // Its duration sets the kill window. Then a kill in the account steps of that complete
    // warehouse, whose listings are stored again over themselves.
    const clean = await tempWorkspace();
    const started = Date.now();
    const cleanRun = await spawnCli(argsFor(clean), { env, timeoutMs: 60_000 });
    expect(cleanRun.code, cleanRun.stderr).toBe(0);
    const cleanRunMs = Date.now() - started;
    await expectEqualToApi(clean, truth, "clean run");
    const again = aim();
    const where = `a complete warehouse, killed at ${again.target} +${again.afterMs} ms (seed ${seed})`;
    if (await killInAccountStep(argsFor(clean), env, again.target, again.afterMs, where)) accountKills += 1;
    await expectEqualToApi(clean, truth, where);
    await clean.cleanup();
    reference = { truth, cleanRunMs };
  });

  test.each(Array.from({ length: ROUNDS }, (_, round) => round))(
    `round %i: SIGKILL at random and in an account step, then a run that finishes, equals the API (seed ${seed})`,
    async (round) => {
      if (reference === undefined) throw new Error("the clean run failed: nothing to compare with");
      const { truth, cleanRunMs } = reference;
      const env = { ZOO_API_TOKEN: admin, ZOO_HOST: sim.url };
      const crashed = await tempWorkspace();
      const args = argsFor(crashed);
      // Anywhere from process start to the end of a whole run: GET /org, the scope claim, the scan,
      // the account steps, the operations, Parquet.
      const delay = next(state, cleanRunMs * 0.8);
      const atRandom = `round ${round}, killed at ${delay} ms of ${cleanRunMs} (seed ${seed})`;
      const killed = await killAtRandom(args, env, delay, atRandom);
      log(`${atRandom}: ${killed ? "killed" : "ended"}`);
      if (killed) randomKills += 1;
      expectConsistent(await readWarehouse(crashed.db), truth, atRandom);
      // Then a run that resumes the scan and dies in one of the account steps.
      const { target, afterMs } = aim();
      const inStep = `round ${round}, killed at ${target} +${afterMs} ms (seed ${seed})`;
      const killedInStep = await killInAccountStep(args, env, target, afterMs, inStep);
      log(`${inStep}: ${killedInStep ? "killed" : "ended"}`);
      if (killedInStep) accountKills += 1;
      expectConsistent(await readWarehouse(crashed.db), truth, inStep);
      // The run that finishes what the killed ones left needs no process of its own.
      const final = await runCli(args, { env });
      expect(final.code, `round ${round}: ${final.stderr}`).toBe(0);
      await expectEqualToApi(crashed, truth, `round ${round}, the run after the kills (seed ${seed})`);
      await crashed.cleanup();
    },
  );

  test(`some account-step kill landed before its run ended: kills all too late would prove nothing (seed ${seed})`, () => {
    expect(accountKills, `seed ${seed}`).toBeGreaterThan(0);
    console.log(
      `org crash test: ${randomKills} random and ${accountKills} account-step kills over ${ROUNDS} round(s) (seed ${seed})`,
    );
  });
});
