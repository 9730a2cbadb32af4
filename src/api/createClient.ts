import { setTimeout as delay } from "node:timers/promises";
import type { Logger } from "../log/logger.js";
import { ZooClient } from "./client.js";
import { RetryBudget, type RetryPolicy } from "./retryPolicy.js";
import { assertSecureTransport } from "./secureTransport.js";
import { Transport } from "./transport.js";
import { exporterUserAgent } from "./userAgent.js";

/** What the client needs to reach the API; the caller (the config) says where each comes from. */
export interface ClientSettings {
  baseUrl: URL;
  /** The bearer token: a secret, never logged or shown. */
  token: string;
  retry: RetryPolicy;
  requestTimeoutMs: number;
  maxResponseBytes: number;
}

export interface ClientEffects {
  logger: Logger;
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** The run's stop signal: requests in flight and retry waits end when it aborts. */
  signal?: AbortSignal | undefined;
}

/** A timer that ends early, without an error, when the signal aborts (the caller checks why). */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, signal === undefined ? {} : { signal }).then(
    () => undefined,
    () => undefined,
  );
}

/** Builds the client: refuses a base URL the token may not be sent to. */
export function createClient(settings: ClientSettings, effects: ClientEffects): ZooClient {
  assertSecureTransport(settings.baseUrl);
  const now = effects.now ?? Date.now;
  const transport = new Transport({
    baseUrl: settings.baseUrl,
    token: settings.token,
    policy: settings.retry,
    budget: new RetryBudget(settings.retry, now),
    requestTimeoutMs: settings.requestTimeoutMs,
    maxResponseBytes: settings.maxResponseBytes,
    userAgent: exporterUserAgent(),
    effects: {
      logger: effects.logger,
      now,
      sleep: effects.sleep ?? abortableSleep,
      random: effects.random ?? Math.random,
    },
    signal: effects.signal,
  });
  return new ZooClient(transport);
}
