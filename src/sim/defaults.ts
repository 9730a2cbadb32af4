/**
 * The simulator's defaults for what `zoo-usage sim` leaves unset, in a module without imports so
 * that the CLI can show them in its help without loading the simulator.
 */
export const SIM_DEFAULTS = {
  /**
   * The simulated clock's start when a caller of startSimulator gives none (tests pin it); the
   * `sim` command starts at the machine's clock instead. A string: a shared Date would be a
   * mutable singleton.
   */
  nowIso: "2026-11-01T00:00:00Z",
  /** What the `sim` command's clock starts at without --now (its help shows this). */
  simNow: "the machine's clock, running with it",
  /** Share of calls billed late (3-40 days, or at month end). */
  lateBillingShare: 0.05,
  latencyMs: 0,
  /** Every fault rate (429, 5xx, resets, truncated bodies): none unless asked. */
  faultRate: 0,
  retryAfterSeconds: 1,
  faultSeed: 1,
} as const;
