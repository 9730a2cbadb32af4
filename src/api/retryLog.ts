import type { Logger } from "../log/logger.js";

/** Retry warnings logged in full before the rest are only counted. */
const SHOWN_RETRIES = 5;

/**
 * Logs a run's retry warnings without flooding the log: the first few in full, then only a count
 * per cause (HTTP status or kind of network failure), summarised in one line at the end. A storm of
 * 429s during a long export is thousands of retries; each is still logged at debug level.
 */
export class RetryLog {
  private readonly counts = new Map<string, number>();
  private shown = 0;
  private total = 0;

  constructor(private readonly logger: Logger) {}

  note(cause: string, line: string): void {
    this.total += 1;
    this.counts.set(cause, (this.counts.get(cause) ?? 0) + 1);
    if (this.shown < SHOWN_RETRIES) {
      this.shown += 1;
      this.logger.warn(line);
      if (this.shown === SHOWN_RETRIES) {
        this.logger.warn("further retries are counted and summarised at the end (--debug logs each)");
      }
      return;
    }
    this.logger.debug(line);
  }

  /** One line with the counts per cause, once some retries went unlogged; undefined otherwise. */
  summary(): string | undefined {
    if (this.total <= this.shown) return undefined;
    const causes = [...this.counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([cause, count]) => `${cause} x${count}`)
      .join(", ");
    return `retried ${this.total} times in all (${this.total - this.shown} not logged): ${causes}`;
  }
}
