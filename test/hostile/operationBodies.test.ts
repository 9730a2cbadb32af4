import { expect, test } from "vitest";
import { createClient } from "../../src/api/createClient.js";
import { clientSettings, loadApiConfig } from "../../src/config/apiConfig.js";
import { ZooUsageError } from "../../src/errors.js";
import { fetchOperationBodies, type OperationAnswer } from "../../src/extract/fetchOperationBodies.js";
import { createLogger } from "../../src/log/logger.js";
import { errorBody, resourcesPerTest, sendJson, validOperation } from "../helpers/hostileApi.js";

/**
 * The operations fetch on its own: ids in, answers out, no warehouse. Where the ids come from and
 * where the answers go is the caller's (here: lists), which is what lets the pipeline plug it in.
 */
const resources = resourcesPerTest();
const TOKEN = "hostile-token-operation-bodies";

const found = validOperation(1);
const gone = validOperation(2).id as string;
const huge = validOperation(3);
const unauthorized = validOperation(4).id as string;
const neverAsked = validOperation(5).id as string;

async function clientFor(routes: Record<string, (res: Parameters<typeof sendJson>[0]) => void>) {
  const api = await resources.hostile((request, res) => {
    const route = routes[request.path];
    if (route === undefined) sendJson(res, 404, errorBody(404, "not found"));
    else route(res);
  });
  const config = loadApiConfig({
    flags: { baseUrl: api.url, maxAttempts: 1, maxResponseMb: 1 },
    env: { ZOO_API_TOKEN: TOKEN },
  });
  const client = createClient(clientSettings(config), {
    logger: createLogger({ level: "error", write: () => undefined }),
  });
  resources.onCleanup(() => client.close());
  return { api, client };
}

/** Hands out the given chunks of ids, then an empty one. */
function chunks(...lists: string[][]): () => Promise<string[]> {
  const queue = [...lists];
  return async () => queue.shift() ?? [];
}

test("each id gets one answer, found, not found or too large, handed out in groups", async () => {
  const { api, client } = await clientFor({
    [`/async/operations/${String(found.id)}`]: (res) => sendJson(res, 200, found),
    [`/async/operations/${String(huge.id)}`]: (res) =>
      // Outputs as one string, not a map of files: nothing to skip, the whole body counts.
      sendJson(res, 200, JSON.stringify({ ...huge, outputs: "x".repeat(1_200_000) })),
  });
  const bodies = fetchOperationBodies(client, {
    nextIds: chunks([String(found.id), gone], [String(huge.id)]),
    concurrency: 2,
    signal: new AbortController().signal,
    now: () => new Date("2026-01-02T03:04:05.000Z"),
  });
  const groups: OperationAnswer[][] = [];
  for await (const group of bodies.answers) groups.push(group);
  const answers = groups.flat().sort((a, b) => a.id.localeCompare(b.id));
  expect(answers.map(({ id, kind }) => ({ id, kind }))).toEqual(
    [
      { id: found.id, kind: "found" },
      { id: gone, kind: "not_found" },
      { id: huge.id, kind: "too_large" },
    ].sort((a, b) => String(a.id).localeCompare(String(b.id))),
  );
  expect(answers.every(({ fetchedAt }) => fetchedAt === "2026-01-02T03:04:05.000Z")).toBe(true);
  const body = answers.find(({ kind }) => kind === "found");
  expect(body?.kind === "found" && (body.body as { id: string }).id).toBe(found.id);
  expect(api.requests.filter(({ path }) => path.startsWith("/async/operations/"))).toHaveLength(3);
  expect(bodies.concurrency()).toEqual({ start: 2, peak: 2, final: 2 });
});

test("another failure stops the fetch: what was answered comes first, then the error is thrown", async () => {
  const { api, client } = await clientFor({
    [`/async/operations/${String(found.id)}`]: (res) => sendJson(res, 200, found),
    [`/async/operations/${unauthorized}`]: (res) => sendJson(res, 401, errorBody(401, "unauthorized")),
  });
  const received: string[] = [];
  const bodies = fetchOperationBodies(client, {
    nextIds: chunks([String(found.id), unauthorized, neverAsked]),
    // One at a time: the id after the failing one is never asked.
    concurrency: 1,
    signal: new AbortController().signal,
    now: () => new Date(),
  });
  const error = await (async () => {
    for await (const group of bodies.answers) received.push(...group.map(({ id }) => id));
  })().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ZooUsageError);
  expect(received).toEqual([found.id]);
  expect(api.requests.map(({ path }) => path)).not.toContain(`/async/operations/${neverAsked}`);
});
