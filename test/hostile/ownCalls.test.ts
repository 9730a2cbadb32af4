import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { expect, test } from "vitest";
import { exporterUserAgent } from "../../src/api/userAgent.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";
import {
  errorBody,
  type HostileRequest,
  pageBody,
  startHostileApi,
  validCall,
} from "../helpers/hostileApi.js";

const OWN_ID = "0a1b2c3d-9999-4000-8000-00000000abcd";

function reply(res: ServerResponse, status: number, text: string, callId: string | undefined): void {
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "x-request-id": randomUUID(),
  };
  if (callId !== undefined) headers["x-api-call-id"] = callId;
  res.writeHead(status, headers);
  res.end(text);
}

test("calls the exporter made, known by the id it received or by its user agent, start no fetch", async () => {
  // The first run's listing: one call that started an operation, answered under the id OWN_ID, and
  // a junk x-api-call-id the exporter must not keep.
  const nights = [
    [[validCall(1)], []],
    [
      [
        validCall(1),
        // What the API lists for the exporter's own request, made to look like one that starts a job.
        validCall(2, { id: OWN_ID, user_agent: "some-proxy/1" }),
        validCall(3, { user_agent: "zoo-usage/9.9 (+https://github.com/zoo-usage/zoo-usage)" }),
        validCall(4),
      ],
      [],
    ],
  ];
  let night = 0;
  const callIds = [OWN_ID, "not-a-uuid"];
  const operationsAsked: string[] = [];
  const api = await startHostileApi((request: HostileRequest, res) => {
    if (request.path === "/user/api-calls") {
      const pages = nights[night] ?? [];
      const index = Number((request.query.get("page_token") ?? "p0").slice(1));
      const next = index + 1 < pages.length ? `p${index + 1}` : null;
      reply(res, 200, pageBody(pages[index] ?? [], next), night === 0 ? callIds.shift() : randomUUID());
      return;
    }
    if (request.path.startsWith("/async/operations/")) operationsAsked.push(request.path);
    reply(res, 404, JSON.stringify(errorBody(404, "not found")), undefined);
  });
  const { db, out, cleanup } = await tempWorkspace();
  try {
    const first = await exportOnce({ baseUrl: api.url, token: "t", flags: { db, out } });
    expect(first.exitCode, JSON.stringify(first.summary)).toBe(0);
    expect(await queryDb(db, "SELECT id::VARCHAR AS id FROM internal.own_calls")).toEqual([{ id: OWN_ID }]);
    expect(new Set(api.requests.map((r) => r.headers["user-agent"]))).toEqual(new Set([exporterUserAgent()]));
    expect(exporterUserAgent()).toMatch(
      /^zoo-usage\/\d+\.\d+\.\d+ \(\+https:\/\/github\.com\/zoo-usage\/zoo-usage\)$/,
    );

    night = 1;
    operationsAsked.length = 0;
    const second = await exportOnce({ baseUrl: api.url, token: "t", flags: { db, out, fullRefresh: true } });
    expect(second.exitCode, JSON.stringify(second.summary)).toBe(0);
    // Only the new call that is not the exporter's is asked about (call 1 is a stored 404).
    expect(operationsAsked).toEqual([`/async/operations/${String(validCall(4).id)}`]);
    const own = await queryDb(
      db,
      "SELECT id::VARCHAR AS id FROM api_calls_enriched WHERE is_own_call ORDER BY created_at",
    );
    expect(own.map((row) => row.id)).toEqual([OWN_ID, validCall(3).id]);
    const [counts] = await queryDb(
      db,
      "SELECT (SELECT count(*) FROM api_calls_excluding_own)::INTEGER AS others, (SELECT sum(own_calls) FROM own_calls_per_month)::INTEGER AS own",
    );
    expect(counts).toEqual({ others: 2, own: 2 });
  } finally {
    await cleanup();
    await api.close();
  }
});
