import { pathToFileURL } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { Agent } from "undici";

/**
 * The operations ceiling: bare keep-alive GETs of /async/operations/{id} for the given ids,
 * `concurrency` at a time, each body read to its end and discarded (nothing parsed, nothing
 * stored). What the export's operations phase would take if fetching were all it did.
 */
export async function operationsCeiling({ baseUrl, token, ids, concurrency }) {
  const base = new URL(baseUrl);
  const prefix = base.pathname.replace(/\/+$/, "");
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: concurrency });
  const started = performance.now();
  let next = 0;
  let requests = 0;
  let bodyBytes = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next];
      next += 1;
      const response = await dispatcher.request({
        origin: base.origin,
        path: `${prefix}/async/operations/${id}`,
        method: "GET",
        headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      });
      for await (const chunk of response.body) bodyBytes += chunk.length;
      requests += 1;
      if (response.statusCode !== 200 && response.statusCode !== 404) {
        throw new Error(`GET /async/operations/${id}: HTTP ${response.statusCode}`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, ids.length)) }, worker));
  } finally {
    await dispatcher.close();
  }
  return { seconds: (performance.now() - started) / 1000, requests, bodyBytes };
}

/** The ids of the operations an export stored (every one it asked about), in the order it asked. */
export async function storedOperationIds(dbPath) {
  const instance = await DuckDBInstance.create(dbPath, { access_mode: "READ_ONLY" });
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(
      "SELECT id::VARCHAR FROM async_operations ORDER BY call_created_at, id",
    );
    return reader.getRows().map(([id]) => String(id));
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

// node bench/lib/operationsCeiling.mjs --url <base> --token <token> --db <export.duckdb> [--concurrency 8]
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = await import("node:util").then(({ parseArgs }) =>
    parseArgs({
      options: {
        url: { type: "string" },
        token: { type: "string" },
        db: { type: "string" },
        concurrency: { type: "string", default: "8" },
      },
    }),
  );
  if (!values.url || !values.token || !values.db) {
    console.error(
      "usage: operationsCeiling.mjs --url <base> --token <token> --db <export.duckdb> [--concurrency n]",
    );
    process.exit(2);
  }
  const ids = await storedOperationIds(values.db);
  const result = await operationsCeiling({
    baseUrl: values.url,
    token: values.token,
    ids,
    concurrency: Number(values.concurrency),
  });
  console.log(JSON.stringify({ ...result, concurrency: Number(values.concurrency) }));
}
