import { type Checkpoint, findLadderRungs } from "../../load/checkpoint.js";
import type { Warehouse } from "../../load/database.js";
import { isoTime } from "../../log/isoTime.js";
import type { SecretBox } from "../../secrets/secretBox.js";

export type ScanMode = "full" | "incremental" | "resume";

export interface StartPoint {
  mode: ScanMode;
  /** The page token to start from (plaintext), or null to start at the oldest call. */
  token: string | null;
  /** Why this start was chosen, for the run's output. */
  reason: string;
}

/**
 * Where a run starts reading:
 * - full: --full-refresh (always from the first page, even after an interrupted scan: the user
 *   asked to read everything again), the first run, no usable rung, or a stored token that cannot
 *   be opened;
 * - resume: a previous run stopped mid-scan; continue from its last committed page token;
 * - incremental: from the newest ladder rung before (high-water mark - lookback), so that billing
 *   filled in late and calls listed late are read again, but old history is not.
 */
export async function chooseStartPoint(
  warehouse: Warehouse,
  state: Checkpoint,
  options: { fullRefresh: boolean; lookbackMs: number; secrets: SecretBox },
): Promise<StartPoint> {
  if (options.fullRefresh)
    return { mode: "full", token: null, reason: "--full-refresh: scanning everything" };
  if (state.resumeToken !== null) {
    const token = options.secrets.open(state.resumeToken);
    if (token !== undefined)
      return { mode: "resume", token, reason: "resuming the interrupted scan from its last checkpoint" };
    return {
      mode: "full",
      token: null,
      reason:
        "the stored resume token cannot be opened with this secret key (key changed?); scanning everything",
    };
  }
  if (state.highWaterCreated === null)
    return { mode: "full", token: null, reason: "first run: scanning everything" };
  const windowStart = isoTime(new Date(Date.parse(state.highWaterCreated) - options.lookbackMs));
  const rungs = await findLadderRungs(warehouse, windowStart);
  if (rungs.length === 0) {
    return {
      mode: "full",
      token: null,
      reason: `no stored position before ${windowStart}: scanning everything`,
    };
  }
  const token = firstOpened(rungs, options.secrets);
  if (token === undefined) {
    return {
      mode: "full",
      token: null,
      reason: `no stored page token before ${windowStart} opens with this secret key; scanning everything`,
    };
  }
  return {
    mode: "incremental",
    token,
    reason: `reading calls created since ${windowStart} (lookback window) and newer`,
  };
}

/** The first of `sealed` that `secrets` opens: the newest rung sealed with this run's key. */
function firstOpened(sealed: readonly string[], secrets: SecretBox): string | undefined {
  for (const token of sealed) {
    const opened = secrets.open(token);
    if (opened !== undefined) return opened;
  }
  return undefined;
}
