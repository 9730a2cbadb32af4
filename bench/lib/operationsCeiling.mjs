import { Agent } from "undici";

/**
 * The operations ceiling: a bare keep-alive loop doing GET /async/operations/{id} for every id,
 * `concurrency` at a time, bodies read and discarded. Nothing else a fetcher could skip.
 */
export async function operationsCeiling({ baseUrl, token, ids, concurrency }) {
  const origin = new URL(baseUrl).origin;
  const prefix = new URL(baseUrl).pathname.replace(/\/$/, "");
  const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
  const started = performance.now();
  let next = 0;
  let requests = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next];
      next += 1;
      const response = await dispatcher.request({
        origin,
        path: `${prefix}/async/operations/${encodeURIComponent(id)}`,
        method: "GET",
        headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      });
      for await (const _chunk of response.body) {
        // read and discarded
      }
      requests += 1;
      if (response.statusCode !== 200 && response.statusCode !== 404) {
        throw new Error(`GET /async/operations/${id}: ${response.statusCode}`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, ids.length)) }, worker));
  } finally {
    await dispatcher.close();
  }
  return { seconds: (performance.now() - started) / 1000, requests };
}
