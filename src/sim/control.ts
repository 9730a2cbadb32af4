import type { IncomingMessage } from "node:http";
import type { SimClock } from "./clock.js";
import type { FaultInjector } from "./faults.js";
import { errorReply, type Reply } from "./responses.js";
import type { SimStats } from "./stats.js";
import type { FaultOptions, SimUser } from "./types.js";

/**
 * Control endpoints for driving a simulator in another process (the benchmark runs it as a child).
 * These paths DO NOT EXIST on api.zoo.dev; nothing but tests, the demo and the benchmark may call
 * them. They need no auth because the simulator binds to loopback by default. Faults never apply.
 *
 *   GET  /_sim/clock            -> {"now": iso}
 *   POST /_sim/clock            {"advance_ms": n} | {"now": iso} -> {"now": iso}
 *   GET  /_sim/stats            -> {requests, byPath, faultsInjected}
 *   POST /_sim/stats/reset      -> the zeroed stats
 *   GET  /_sim/faults           -> the current FaultOptions
 *   POST /_sim/faults           FaultOptions -> the new FaultOptions
 *   GET  /_sim/users            -> [{id, token, email, orgId}]
 */
export interface ControlContext {
  clock: SimClock;
  stats: SimStats;
  faults: FaultInjector;
  users: SimUser[];
}

const MAX_BODY_BYTES = 64 * 1024;
const FAULT_KEYS = new Set([
  "latencyMs",
  "rate429",
  "retryAfterSeconds",
  "retryAfterAsDate",
  "rate5xx",
  "rateReset",
  "rateTruncated",
  "faultSeed",
]);

export async function handleControl(
  ctx: ControlContext,
  req: IncomingMessage,
  path: string,
  requestId: string,
): Promise<Reply> {
  const method = req.method ?? "GET";
  const route = `${method} ${path}`;
  try {
    switch (route) {
      case "GET /_sim/clock":
        return ok({ now: ctx.clock.now().toISOString() });
      case "POST /_sim/clock": {
        const body = await readJson(req);
        if (typeof body.advance_ms === "number") ctx.clock.advance(body.advance_ms);
        else if (typeof body.now === "string") ctx.clock.set(new Date(body.now));
        else return errorReply(requestId, 400, 'expected {"advance_ms": number} or {"now": "<iso>"}');
        return ok({ now: ctx.clock.now().toISOString() });
      }
      case "GET /_sim/stats":
        return ok(ctx.stats.toJSON());
      case "POST /_sim/stats/reset":
        ctx.stats.reset();
        return ok(ctx.stats.toJSON());
      case "GET /_sim/faults":
        return ok(ctx.faults.options);
      case "POST /_sim/faults": {
        const body = await readJson(req);
        const unknown = Object.keys(body).filter((k) => !FAULT_KEYS.has(k));
        if (unknown.length > 0)
          return errorReply(requestId, 400, `unknown fault options: ${unknown.join(", ")}`);
        ctx.faults.set(body as FaultOptions);
        return ok(ctx.faults.options);
      }
      case "GET /_sim/users":
        return ok(ctx.users);
      default:
        return errorReply(requestId, 404, "Not Found");
    }
  } catch (error) {
    return errorReply(requestId, 400, error instanceof Error ? error.message : String(error));
  }
}

function ok(value: unknown): Reply {
  return { status: 200, body: JSON.stringify(value) };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new RangeError("request body too large");
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  const value: unknown = text.trim() === "" ? {} : JSON.parse(text);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new TypeError("expected a JSON object");
  }
  return value as Record<string, unknown>;
}
