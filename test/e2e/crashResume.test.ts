import { randomInt } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { spawnCli } from "../helpers/cli.js";
import { queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import { microsOf, readDataset } from "../helpers/parquetDataset.js";

/**
 * Kills the export (SIGKILL, no chance to clean up) at random moments and re-runs it until it
 * finishes; the result must equal one uninterrupted run: same rows, same prices, same view totals,
 * same Parquet rows. The delays come from a seed printed on failure (CRASH_SEED reproduces a run).
 */
const seed = Number(process.env.CRASH_SEED ?? randomInt(1_000_000));
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

test(`SIGKILL at random moments, then re-run until done, equals one clean run (seed ${seed})`, async () => {
  const token = sim.users[0]?.token ?? "";
  const env = { ZOO_API_TOKEN: token, ZOO_HOST: sim.url };
  const argsFor = (workspace: { db: string; out: string }) => [
    ...["export", "--db", workspace.db, "--out", workspace.out],
    ...["--limit", "200", "--batch-records", "700", "--no-summary", "--operations", "all"],
  ];
  // The reference: one uninterrupted run of the same command. Its duration sets the kill window.
  const clean = await tempWorkspace();
  const started = Date.now();
  expect((await spawnCli(argsFor(clean), { env })).code).toBe(0);
  const cleanRunMs = Date.now() - started;
  const expected = await snapshot(clean.db, clean.out);
  expect(expected.rows.length).toBeGreaterThan(3000);

  const state = { value: seed };
  let totalKills = 0;
  for (let round = 0; round < ROUNDS; round++) {
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
      if (process.env.CRASH_DEBUG)
        console.log(
          `attempt ${attempt}: delay ${delay} ms of ${cleanRunMs} -> ${result.signal ?? result.code}`,
        );
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
  }
  // A test whose kills all land after the run ended would prove nothing.
  expect(totalKills, `seed ${seed}`).toBeGreaterThan(0);
  console.log(`crash test: ${totalKills} kills over ${ROUNDS} rounds (seed ${seed})`);
  await clean.cleanup();
}, 300_000);
