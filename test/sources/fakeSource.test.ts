import { expect, test } from "vitest";
import { type DeclaredSource, runDeclared } from "../../src/sources/declaredSource.js";
import { runListing } from "../../src/sources/listing/runListing.js";
import { errorBody, pageBody, resourcesPerTest, sendJson, startHostileApi } from "../helpers/hostileApi.js";
import { runContextFor } from "../helpers/sourceHarness.js";

const resources = resourcesPerTest();

/** A source declared here, in the test: a listing of "things" into a table of its own. */
const things: DeclaredSource = {
  name: "things",
  reads: "GET /user/things",
  lands: "things",
  disposition: "merge on `id`",
  optional: true,
  phase: "account",
  progress: "fetching things",
  run: (context) =>
    runListing(
      "things",
      {
        reads: "GET /user/things",
        noun: "thing",
        page: (pageToken, signal) =>
          context.deps.client.listPage("/user/things", { limit: 2, pageToken, signal }),
        check: (item) => {
          const { id, n } = item as { id?: unknown; n?: unknown };
          if (typeof id === "string" && typeof n === "number") return { ok: true, key: id, row: { id, n } };
          return {
            ok: false,
            reject: { record_id: null, reason: "thing: no id or n", raw_json: JSON.stringify(item) },
          };
        },
        write: async (rows) => {
          await context.deps.warehouse.connection.run(
            `INSERT OR REPLACE INTO things SELECT r.id, CAST(r.n AS TINYINT) FROM (SELECT unnest(json_transform($1, '[{"id":"VARCHAR","n":"BIGINT"}]')) AS r)`,
            [JSON.stringify(rows)],
          );
          return rows.length;
        },
      },
      context,
    ),
  // The test's own source has no part of the run summary.
  summarize: () => undefined,
};

async function runThings(pages: Record<string, { items: unknown[]; next: string | null } | number>) {
  const api = await startHostileApi((request, res) => {
    const page = pages[request.query.get("page_token") ?? "first"];
    if (typeof page === "number") return sendJson(res, page, errorBody(page, "no"));
    sendJson(res, 200, pageBody(page?.items ?? [], page?.next ?? null));
  });
  resources.onCleanup(() => api.close());
  const { dir } = await resources.workspace();
  const run = await runContextFor(api.url, dir);
  resources.onCleanup(run.close);
  await run.warehouse.connection.run("CREATE TABLE things (id VARCHAR PRIMARY KEY, n TINYINT)");
  const outcome = await runDeclared(things, run.context);
  const read = async (sql: string) => (await run.warehouse.connection.runAndReadAll(sql)).getRowObjectsJS();
  const stored = await read("SELECT id, n FROM things ORDER BY id");
  const rejects = (await read("SELECT reason FROM rejects ORDER BY reason DESC")).map((row) =>
    String(row.reason),
  );
  return { outcome, stored, rejects, warnings: run.warnings };
}

test("a fake listing: bad records and DuckDB's refusals are rejects, a repeat is kept once, the rest stored", async () => {
  const run = await runThings({
    first: { items: [{ id: "a", n: 1 }, { id: "b" }], next: "p2" },
    p2: {
      items: [
        { id: "a", n: 9 },
        { id: "c", n: 1000 },
        { id: "d", n: 4 },
      ],
      next: "p3",
    },
    p3: { items: [], next: null },
  });
  expect(run.outcome).toMatchObject({ status: "stored", counts: { rejected: 2 } });
  expect(run.stored).toEqual([
    { id: "a", n: 1 },
    { id: "d", n: 4 },
  ]);
  expect(run.rejects).toEqual([
    expect.stringMatching(/^thing: no id or n/),
    expect.stringMatching(/^DuckDB refused this thing: Conversion Error/),
  ]);
  expect(run.warnings).toContain(
    "GET /user/things listed 1 thing(s) again under an id listed before: the copy listed first is stored",
  );
});

test("a fake listing that repeats its token fails as a pagination anomaly naming it; a 403 skips it", async () => {
  const loop = await runThings({
    first: { items: [{ id: "a", n: 1 }], next: "p2" },
    p2: { items: [{ id: "b", n: 2 }], next: "p2" },
  });
  expect(loop.outcome).toMatchObject({ status: "failed", kind: "partial" });
  expect(loop.outcome.message).toMatch(
    /Pagination anomaly in GET \/user\/things: page 2 .*page token of an earlier page/,
  );
  expect(loop.stored).toHaveLength(2);
  const forbidden = await runThings({ first: 403 });
  expect(forbidden.outcome).toMatchObject({ status: "skipped" });
  expect(forbidden.outcome.message).toMatch(/^things skipped: the API answered 403/);
});
