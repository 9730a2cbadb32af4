import { type Config, requireToken } from "../config/config.js";
import type { Logger } from "../log/logger.js";
import { ZooClient } from "./client.js";
import { RetryBudget } from "./retryPolicy.js";
import { assertSecureTransport } from "./secureTransport.js";
import { Transport } from "./transport.js";

export interface ClientEffects {
  logger: Logger;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const USER_AGENT = "zoo-usage/0.1 (+https://github.com/zoo-usage)";

/** Builds the client from a Config: checks the token is present and may be sent to this host. */
export function createClient(config: Config, effects: ClientEffects): ZooClient {
  const token = requireToken(config);
  assertSecureTransport(config.baseUrl);
  const transport = new Transport({
    baseUrl: config.baseUrl,
    token,
    policy: config.retry,
    budget: new RetryBudget(config.retry),
    requestTimeoutMs: config.requestTimeoutMs,
    userAgent: USER_AGENT,
    effects: {
      logger: effects.logger,
      now: effects.now ?? Date.now,
      sleep: effects.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
      random: effects.random ?? Math.random,
    },
  });
  return new ZooClient(transport);
}
