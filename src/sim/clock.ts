/**
 * The simulated clock. It only moves when told to (tests and the benchmark drive it), and only
 * forward: the dataset promises that moving the clock adds calls and fills billing, never removes or
 * rewrites anything, which would be meaningless if time could run backwards.
 */
export interface SimClock {
  now(): Date;
  advance(ms: number): void;
  /** Moves to `date`; throws RangeError if that is in the past. */
  set(date: Date): void;
}

export function createClock(start: Date): SimClock {
  let nowMs = start.getTime();
  if (!Number.isFinite(nowMs)) throw new RangeError("the simulator clock needs a valid start date");
  return {
    now: () => new Date(nowMs),
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) {
        throw new RangeError(`the simulator clock only moves forward (advance by ${ms} ms refused)`);
      }
      nowMs += ms;
    },
    set(date: Date) {
      const target = date.getTime();
      if (!Number.isFinite(target)) throw new RangeError("invalid date for the simulator clock");
      if (target < nowMs) {
        throw new RangeError(
          `the simulator clock only moves forward (${date.toISOString()} is before ${new Date(nowMs).toISOString()})`,
        );
      }
      nowMs = target;
    },
  };
}
