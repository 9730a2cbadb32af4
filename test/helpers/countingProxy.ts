import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A request-counting HTTP proxy between the exporter and the simulator. `rewrite` may alter a
 * successful JSON body (to inject broken records or pages the simulator does not produce).
 */
export interface CountingProxy {
  url: string;
  counts: Map<string, number>;
  count(pathname: string): number;
  close(): Promise<void>;
}

/** An answer the proxy gives instead of asking the simulator (to inject failures). */
export interface InjectedResponse {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

export async function startCountingProxy(
  target: string,
  rewrite?: (pathname: string, body: string, search: URLSearchParams) => string,
  intercept?: (pathname: string, search: URLSearchParams, count: number) => InjectedResponse | undefined,
): Promise<CountingProxy> {
  const counts = new Map<string, number>();
  const server = http.createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", target);
    const count = (counts.get(url.pathname) ?? 0) + 1;
    counts.set(url.pathname, count);
    const injected = intercept?.(url.pathname, url.searchParams, count);
    if (injected !== undefined) {
      response
        .writeHead(injected.status, { "content-type": "application/json", ...injected.headers })
        .end(injected.body);
      return;
    }
    try {
      const upstream = await fetch(url, { headers: { authorization: request.headers.authorization ?? "" } });
      let body = await upstream.text();
      if (rewrite && upstream.ok) body = rewrite(url.pathname, body, url.searchParams);
      const headers: Record<string, string> = { "content-type": "application/json" };
      for (const name of ["x-request-id", "x-api-call-id", "retry-after"]) {
        const value = upstream.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      response.writeHead(upstream.status, headers).end(body);
    } catch (error) {
      response.writeHead(502).end(JSON.stringify({ message: String(error), request_id: "proxy" }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    count: (pathname) => counts.get(pathname) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
