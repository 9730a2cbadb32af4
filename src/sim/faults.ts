import { SIM_DEFAULTS } from "./defaults.js";
import { Mulberry32 } from "./random.js";
import type { FaultOptions } from "./types.js";

export type FaultKind = "429" | "500" | "502" | "503" | "reset" | "truncated";

/**
 * Decides, per API request, whether to misbehave. Zoo publishes no rate-limit contract, so a client
 * meets 429 (with or without Retry-After, in seconds or an HTTP date), 5xx, resets and timeouts.
 * Draws come from a PRNG of their own (faultSeed), so a run's faults are reproducible, and they never
 * touch the data generator.
 */
export class FaultInjector {
  #options: FaultOptions = {};
  #rng = new Mulberry32(1);

  constructor(options: FaultOptions = {}) {
    this.set(options);
  }

  /** Replaces the fault settings and restarts the fault stream from its seed. */
  set(options: FaultOptions): void {
    for (const key of ["rate429", "rate5xx", "rateReset", "rateTruncated"] as const) {
      const rate = options[key];
      if (rate !== undefined && !(rate >= 0 && rate <= 1))
        throw new RangeError(`${key} must be in 0..1, got ${rate}`);
    }
    if (options.latencyMs !== undefined && !(options.latencyMs >= 0)) {
      throw new RangeError(`latencyMs must be >= 0, got ${options.latencyMs}`);
    }
    this.#options = { ...options };
    this.#rng = new Mulberry32(options.faultSeed ?? SIM_DEFAULTS.faultSeed);
  }

  get options(): FaultOptions {
    return { ...this.#options };
  }

  get latencyMs(): number {
    return this.#options.latencyMs ?? SIM_DEFAULTS.latencyMs;
  }

  /** The fault for the next request, or null. Kinds are tried in a fixed order with their own rates. */
  draw(): FaultKind | null {
    const o = this.#options;
    const u = this.#rng.next();
    let edge = 0;
    edge += o.rate429 ?? SIM_DEFAULTS.faultRate;
    if (u < edge) return "429";
    edge += o.rate5xx ?? SIM_DEFAULTS.faultRate;
    if (u < edge) return (["500", "502", "503"] as const)[Math.floor(this.#rng.next() * 3)] ?? "500";
    edge += o.rateReset ?? SIM_DEFAULTS.faultRate;
    if (u < edge) return "reset";
    edge += o.rateTruncated ?? SIM_DEFAULTS.faultRate;
    if (u < edge) return "truncated";
    return null;
  }

  /**
   * Retry-After for a 429: delta-seconds, or an HTTP date when asked (RFC 9110 allows both). The date
   * is on the real (wall) clock, not the simulated one: it is the client's sleep that it schedules.
   */
  retryAfter(now: Date): string {
    const seconds = this.#options.retryAfterSeconds ?? SIM_DEFAULTS.retryAfterSeconds;
    // An HTTP date has whole seconds: round up so the client never waits less than asked.
    const at = Math.ceil((now.getTime() + seconds * 1000) / 1000) * 1000;
    if (this.#options.retryAfterAsDate) return new Date(at).toUTCString();
    return String(seconds);
  }
}
