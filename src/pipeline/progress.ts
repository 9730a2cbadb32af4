/**
 * Progress of a long run. On a terminal: one live line redrawn in place (pages, records, rate,
 * retries, phase). In a pipe or cron: a plain log line at phase changes and every `intervalMs`.
 */
export interface ProgressCounters {
  phase: string;
  pages: number;
  records: number;
  operations: number;
  rejected: number;
  retries: number;
  partitions: number;
}

export interface Progress {
  update(change: Partial<ProgressCounters>): void;
  add(
    change: Partial<Pick<ProgressCounters, "pages" | "records" | "operations" | "rejected" | "partitions">>,
  ): void;
  done(): void;
}

export function createProgress(options: {
  isTty: boolean;
  write: (text: string) => void;
  log: (line: string) => void;
  now: () => number;
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
  };
  const started = options.now();
  const interval = options.intervalMs ?? (options.isTty ? 200 : 10_000);
  let lastShown = 0;
  let lineShown = false;
  let lastCounts = "";
  const counts = () =>
    `${counters.phase}: ${counters.pages} pages, ${counters.records} records, ${counters.operations} operations, ${counters.rejected} rejected, ${counters.retries} retries, ${counters.partitions} partitions written`;
  const show = (force: boolean) => {
    const now = options.now();
    if (!force && now - lastShown < interval) return;
    const text = counts();
    // In a log, a line that says nothing new is noise.
    if (!options.isTty && text === lastCounts) return;
    lastShown = now;
    lastCounts = text;
    const seconds = Math.max(0.001, (now - started) / 1000);
    const rate = Math.round((counters.records + counters.operations) / seconds);
    const line = `${text}, ${rate} items/s, ${seconds.toFixed(1)} s`;
    if (options.isTty) {
      options.write(`\r\x1b[2K${line}`);
      lineShown = true;
    } else {
      options.log(line);
    }
  };
  return {
    update(change) {
      const phaseChanged = change.phase !== undefined && change.phase !== counters.phase;
      Object.assign(counters, change);
      show(phaseChanged);
    },
    add(change) {
      counters.pages += change.pages ?? 0;
      counters.records += change.records ?? 0;
      counters.operations += change.operations ?? 0;
      counters.rejected += change.rejected ?? 0;
      counters.partitions += change.partitions ?? 0;
      show(false);
    },
    done() {
      show(true);
      if (options.isTty && lineShown) options.write("\n");
    },
  };
}

/** For library use and tests that do not look at progress. */
export const silentProgress: Progress = { update() {}, add() {}, done() {} };
