/**
 * The simulated clock. It moves when told to (tests and the benchmark drive it) and, given a wall
 * clock, also as that clock does (the `sim` command, so an export run by hand hours later finds
 * the calls made meanwhile and the credits drawn by them). It only moves forward: the dataset promises that moving the clock adds calls and fills billing, never removes or
 * rewrites anything, which would be meaningless if time could run backwards.
 */
export interface SimClock {
  now(): Date;
  advance(ms: number): void;
  /** Moves to `date`; throws RangeError if that is in the past. */
  set(date: Date): void;
}

export function createClock(start: Date, wall?: () => Date): SimClock {
  const wallStartMs = wall?.().getTime() ?? 0;
  // Time the wall clock has moved since the start (never back: a wall clock stepped back stalls).
  let wallMovedMs = 0;
  const moved = () => {
    if (wall !== undefined) wallMovedMs = Math.max(wallMovedMs, wall().getTime() - wallStartMs);
    return wallMovedMs;
  };
  let toldMs = start.getTime();
  if (!Number.isFinite(toldMs)) throw new RangeError("the simulator clock needs a valid start date");
  return {
    now: () => new Date(toldMs + moved()),
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) {
        throw new RangeError(`the simulator clock only moves forward (advance by ${ms} ms refused)`);
      }
      toldMs += ms;
    },
    set(date: Date) {
      const target = date.getTime();
      if (!Number.isFinite(target)) throw new RangeError("invalid date for the simulator clock");
      const nowMs = toldMs + moved();
      if (target < nowMs) {
        throw new RangeError(
          `the simulator clock only moves forward (${date.toISOString()} is before ${new Date(nowMs).toISOString()})`,
        );
      }
      toldMs += target - nowMs;
    },
  };
}
