import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { balanceScopeOf, getPaymentBalance } from "./balance.js";
import { createClock, type SimClock } from "./clock.js";
import { handleControl } from "./control.js";
import { Dataset, DEFAULT_NOW_ISO } from "./dataset.js";
import { FaultInjector } from "./faults.js";
import { InvoiceBook } from "./invoiceBook.js";
import { listInvoices } from "./invoiceRoutes.js";
import { invoiceShapeOf, USD } from "./invoiceShape.js";
import { orgRoute, orgRouteOf } from "./orgRoutes.js";
import { RecordedCalls } from "./recordedCalls.js";
import { type HoldMatch, type RequestGate, RequestGates } from "./requestGate.js";
import { errorReply, newRequestId, type Reply, send } from "./responses.js";
import { getApiCall, getAsyncOperation, listApiCalls, type RouteContext } from "./routes.js";
import { SimStats } from "./stats.js";
import { microsFromDate } from "./time.js";
import type { FaultOptions, SimUser, SimulatorOptions } from "./types.js";

export interface RunningSimulator {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  users: SimUser[];
  clock: SimClock;
  stats: {
    requests: number;
    byPath: Record<string, number>;
    faultsInjected: Record<string, number>;
    reset(): void;
  };
  /** Changes faults at runtime; the fault stream restarts from `faultSeed`. */
  setFaults(faults: FaultOptions): void;
  /**
   * Tests only: API requests that match wait, before they are answered, until the gate is released
   * (close releases every gate). Not reachable over HTTP.
   */
  holdRequests(match: HoldMatch): RequestGate;
  close(): Promise<void>;
}

const OPERATION_PATH = /^\/async\/operations\/([^/]+)$/;
const API_CALL_PATH = /^\/user\/api-calls\/([^/]+)$/;
const INVOICES_PATH = /^\/(user|org)\/payment\/invoices$/;

/** The spec's path template of an API route, or "(unmatched)": the key of the request counters. */
function routeOf(path: string): string {
  if (path === "/user/api-calls" || balanceScopeOf(path) !== undefined) return path;
  if (OPERATION_PATH.test(path)) return "/async/operations/{id}";
  if (API_CALL_PATH.test(path)) return "/user/api-calls/{id}";
  if (INVOICES_PATH.test(path)) return path;
  return orgRouteOf(path) ?? "(unmatched)";
}

/** Starts the simulator over plain node:http. Resolves once it is listening. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const now = options.now ?? new Date(DEFAULT_NOW_ISO);
  const dataset = new Dataset({ ...options, now });
  const clock = createClock(now, options.wallClock);
  const faults = new FaultInjector(options.faults);
  const stats = new SimStats();
  const gates = new RequestGates();
  const users = dataset.users;
  const recorded = options.recordOwnTraffic
    ? new RecordedCalls(dataset.seed, options.priceAsString ?? false)
    : undefined;
  const routes: RouteContext = {
    dataset,
    now: () => clock.now(),
    priceAsString: options.priceAsString ?? false,
    recorded,
    outputBytes: options.outputBytes,
  };
  const control = { clock, stats, faults, users };
  const shape = invoiceShapeOf(options, dataset.perCallItems);
  const invoices = new InvoiceBook(dataset, shape);
  // CustomerBalance.total_due is money-usd: with invoices in another currency, the balance reads the
  // same invoices in USD, their amounts unconverted.
  const usdInvoices =
    shape.currency === USD ? invoices : new InvoiceBook(dataset, { ...shape, currency: USD });
  const balanceRoutes = { ...routes, book: usdInvoices, subscription: shape.subscription };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A bug in the simulator must still answer, and in the API's shape.
      const requestId = newRequestId();
      if (res.headersSent) res.destroy(error instanceof Error ? error : undefined);
      else send(res, requestId, errorReply(requestId, 500, "Internal Server Error", "Internal"));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = newRequestId();
    const target = req.url ?? "/";
    const q = target.indexOf("?");
    const path = q === -1 ? target : target.slice(0, q);
    if (path.startsWith("/_sim/")) {
      send(res, requestId, await handleControl(control, req, path, requestId));
      return;
    }
    stats.countRequest(routeOf(path));

    if (gates.active) await gates.pass({ path, query: new URLSearchParams(target.slice(path.length + 1)) });
    const fault = faults.draw();
    if (faults.latencyMs > 0) await sleep(faults.latencyMs);
    if (fault === "reset") {
      stats.countFault(fault);
      req.socket.destroy();
      return;
    }
    if (fault === "429") {
      stats.countFault(fault);
      const headers = { "retry-after": faults.retryAfter(new Date()) };
      send(res, requestId, errorReply(requestId, 429, "Too Many Requests", undefined, headers));
      return;
    }
    if (fault === "500" || fault === "502" || fault === "503") {
      stats.countFault(fault);
      send(res, requestId, serverError(requestId, fault));
      return;
    }

    const queryString = target.slice(q === -1 ? target.length : q + 1);
    const reply = route(req, path, queryString, requestId);
    if (recorded !== undefined) recordCall(recorded, req, path, queryString, reply);
    // A cut body is only meaningful on a success; other replies are sent whole.
    const truncate = fault === "truncated" && reply.status === 200;
    if (truncate) stats.countFault("truncated");
    send(res, requestId, reply, truncate);
  }

  function route(req: IncomingMessage, path: string, queryString: string, requestId: string): Reply {
    const method = req.method ?? "GET";
    const operationId = OPERATION_PATH.exec(path)?.[1];
    const callId = API_CALL_PATH.exec(path)?.[1];
    const invoiceScope = INVOICES_PATH.exec(path)?.[1] as "user" | "org" | undefined;
    const balanceScope = balanceScopeOf(path);
    const known =
      path === "/user/api-calls" ||
      operationId !== undefined ||
      callId !== undefined ||
      invoiceScope !== undefined ||
      balanceScope !== undefined ||
      orgRouteOf(path) !== undefined;
    if (!known) return errorReply(requestId, 404, "Not Found");
    // The routes are GET only in the spec; Dropshot answers other methods with 405.
    if (method !== "GET")
      return errorReply(requestId, 405, "Method Not Allowed", undefined, { allow: "GET" });
    const authorization = req.headers.authorization;
    if (operationId !== undefined) return getAsyncOperation(routes, requestId, operationId, authorization);
    if (callId !== undefined) return getApiCall(routes, requestId, callId, authorization);
    if (invoiceScope !== undefined)
      return listInvoices(
        routes,
        invoices,
        invoiceScope,
        requestId,
        new URLSearchParams(queryString),
        authorization,
      );
    if (balanceScope !== undefined)
      return getPaymentBalance(
        balanceRoutes,
        requestId,
        balanceScope,
        new URLSearchParams(queryString),
        authorization,
      );
    const org = orgRoute(routes, path, new URLSearchParams(queryString), requestId, authorization);
    if (org !== undefined) return org;
    return listApiCalls(routes, requestId, new URLSearchParams(queryString), authorization);
  }

  /**
   * Records an answered request of a known user as that user's call, with the call's id in the
   * reply's x-api-call-id. A request whose token names nobody is nobody's call.
   */
  function recordCall(
    store: RecordedCalls,
    req: IncomingMessage,
    path: string,
    queryString: string,
    reply: Reply,
  ): void {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "")?.[1];
    const user = token === undefined ? undefined : dataset.userIndexByToken(token);
    const owner = user === undefined ? undefined : dataset.profileOf(user);
    if (user === undefined || owner === undefined) return;
    const id = store.record(owner, {
      user,
      method: req.method ?? "GET",
      endpoint: path,
      query: queryString,
      statusCode: reply.status,
      userAgent: req.headers["user-agent"] ?? "",
      origin: req.headers.origin ?? "",
      // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d; the API logs a.b.c.d.
      ipAddress: (req.socket.remoteAddress ?? "").replace(/^::ffff:/, ""),
      createdUs: microsFromDate(clock.now()),
    });
    reply.headers = { ...reply.headers, "x-api-call-id": id };
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    users,
    clock,
    stats,
    setFaults: (next) => faults.set(next),
    holdRequests: (match) => gates.add(match),
    close: () =>
      new Promise<void>((resolve, reject) => {
        gates.releaseAll();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Generic 5xx bodies, as Dropshot's for_internal_error / for_unavail and a failing gateway give. */
function serverError(requestId: string, status: "500" | "502" | "503"): Reply {
  if (status === "500") return errorReply(requestId, 500, "Internal Server Error", "Internal");
  if (status === "502") return errorReply(requestId, 502, "Bad Gateway");
  return errorReply(requestId, 503, "Service Unavailable", "ServiceNotAvailable");
}
