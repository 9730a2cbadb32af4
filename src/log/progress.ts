import { formatProgressLine, type ProgressCounters } from "./progressLine.js";

export type { ProgressCounters } from "./progressLine.js";

/** The counters a phase can count its items by. */
export type CountedItems = "pages" | "records" | "operations" | "rejected" | "partitions" | "rereads";

export interface ProgressUpdate {
  phase?: string;
  /** What the phase's items are: its rate, x / N and ETA follow this counter. */
  counting?: CountedItems;
  /** How many items the phase has in all, when known. */
  total?: number;
}

/**
 * Progress of a long run. On a terminal: one live line redrawn in place, as wide as the terminal
 * (formatProgressLine). In a pipe or cron: a plain log line at phase changes and every `intervalMs`.
 */
export interface Progress {
  update(change: ProgressUpdate): void;
  add(change: Partial<Pick<ProgressCounters, CountedItems>>): void;
  /** Shows the last counts and ends the live line; what comes after it shows nothing. */
  done(): void;
  /**
   * Writes a line of its own (a log line) above the live line, which is then drawn again: written
   * straight after it, the line would join the live line and be overwritten by its next redraw.
   */
  above(line: string): void;
}

/** The rate is measured over this much of the recent past. */
const RATE_WINDOW_MS = 5000;
/** A rate over less than this says more about timing than about throughput. */
const RATE_MIN_SPAN_MS = 500;

export function createProgress(options: {
  isTty: boolean;
  write: (text: string) => void;
  log: (line: string) => void;
  now: () => number;
  /** The retries so far, read where the run summary reads them (the client's stats). */
  retries?: () => number;
  /** The terminal's width now (it may be resized during a run); 80 when unknown. */
  columns?: () => number | undefined;
  intervalMs?: number;
}): Progress {
  const counters: ProgressCounters = {
    phase: "starting",
    pages: 0,
    records: 0,
    operations: 0,
    rejected: 0,
    retries: 0,
    partitions: 0,
    rereads: 0,
  };
  const started = options.now();
  const interval = options.intervalMs ?? (options.isTty ? 200 : 10_000);
  const rate = new RecentRate();
  let counting: CountedItems | undefined;
  let total: number | undefined;
  let phaseStartCount = 0;
  let lastShown = 0;
  /** The live line as last drawn, while it is on the screen. */
  let shownLine: string | undefined;
  let finished = false;
  let lastCounts = "";
  const counted = () => (counting === undefined ? 0 : counters[counting] - phaseStartCount);
  const counts = () =>
    `${counters.phase}: ${counters.pages} pages, ${counters.records} records, ${counters.operations} operations, ${counters.rejected} rejected, ${counters.retries} retries, ${counters.partitions} partitions written`;
  const show = (force: boolean) => {
    if (finished) return;
    const now = options.now();
    counters.retries = options.retries?.() ?? counters.retries;
    rate.sample(now, counted());
    if (!force && now - lastShown < interval) return;
    const text = counts();
    // In a log, a line that says nothing new is noise.
    if (!options.isTty && text === lastCounts) return;
    lastShown = now;
    lastCounts = text;
    const seconds = Math.max(0.001, (now - started) / 1000);
    if (options.isTty) {
      const perSecond = counting === undefined ? undefined : rate.perSecond(now);
      const line = formatProgressLine(
        {
          counters,
          elapsedSeconds: seconds,
          ...(counting === undefined ? {} : { done: counted() }),
          ...(total === undefined ? {} : { total }),
          ...(perSecond === undefined || counting === undefined
            ? {}
            : { rate: { perSecond, unit: counting === "rereads" ? "re-reads" : counting } }),
        },
        terminalWidth(options.columns?.()),
      );
      // Back to the line's start, the new text, then clear what a longer earlier line left.
      const drawn = `\r${line}\x1b[K`;
      // The same line again (the end after the last phase) would only redraw what is there.
      if (drawn !== shownLine) options.write(drawn);
      shownLine = drawn;
    } else {
      const items = Math.round((counters.records + counters.operations) / seconds);
      options.log(`${text}, ${items} items/s, ${seconds.toFixed(1)} s`);
    }
  };
  return {
    update(change) {
      const phaseChanged = change.phase !== undefined && change.phase !== counters.phase;
      if (phaseChanged) {
        counters.phase = change.phase ?? counters.phase;
        counting = undefined;
        total = undefined;
      }
      if (change.counting !== undefined) {
        counting = change.counting;
        phaseStartCount = counters[counting];
        rate.reset();
      }
      if (change.total !== undefined) total = change.total;
      show(phaseChanged);
    },
    add(change) {
      counters.pages += change.pages ?? 0;
      counters.records += change.records ?? 0;
      counters.operations += change.operations ?? 0;
      counters.rejected += change.rejected ?? 0;
      counters.partitions += change.partitions ?? 0;
      counters.rereads += change.rereads ?? 0;
      show(false);
    },
    done() {
      counting = undefined;
      // A run that ends before its first phase (a bad setting, a locked database) has no counts.
      if (shownLine !== undefined || lastCounts !== "") show(true);
      finished = true;
      if (shownLine !== undefined) options.write("\n");
      shownLine = undefined;
    },
    above(line) {
      options.write(shownLine === undefined ? `${line}\n` : `\r\x1b[K${line}\n${shownLine}`);
    },
  };
}

/** A terminal that reports no width (undefined, or 0 on some emulators) is taken as 80 wide. */
function terminalWidth(columns: number | undefined): number {
  return columns !== undefined && columns > 0 ? columns : 80;
}

/** Items per second over the last RATE_WINDOW_MS, from samples of a running count. */
class RecentRate {
  private samples: { at: number; count: number }[] = [];

  reset(): void {
    this.samples = [];
  }

  sample(at: number, count: number): void {
    const last = this.samples.at(-1);
    // One sample per 100 ms is plenty and keeps the list short.
    if (last !== undefined && this.samples.length > 1 && at - last.at < 100) {
      last.count = count;
      return;
    }
    this.samples.push({ at, count });
    // Keep one sample at or before the window's start, so the window is always covered.
    while (this.samples.length > 2 && (this.samples[1]?.at ?? at) <= at - RATE_WINDOW_MS)
      this.samples.shift();
  }

  /** Undefined until the samples span enough time to say. */
  perSecond(now: number): number | undefined {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (first === undefined || last === undefined || now - first.at < RATE_MIN_SPAN_MS) return undefined;
    return ((last.count - first.count) * 1000) / (now - first.at);
  }
}

/** For library use and tests that do not look at progress. */
export const silentProgress: Progress = { update() {}, add() {}, done() {}, above() {} };
