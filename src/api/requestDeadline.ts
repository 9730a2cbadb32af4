/**
 * One attempt's abort signal: it fires when the attempt's time limit passes (the whole request,
 * connect, headers and every byte of the body: undici's bodyTimeout is an idle timer per chunk, so
 * a body trickled a byte at a time never trips it), or when the run stops (SIGINT/SIGTERM, or the
 * client closing with requests still out). A listener and a timer instead of AbortSignal.any and
 * AbortSignal.timeout: both are released as soon as the attempt ends, whatever the run's length.
 */
export class RequestDeadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onStop: () => void;
  /** Why the attempt ended early, once it has. */
  private why: "timeout" | "stopped" | "too_large" | undefined;

  constructor(
    private readonly stop: AbortSignal,
    readonly timeoutMs: number,
  ) {
    this.timer = setTimeout(() => this.abort("timeout"), timeoutMs);
    this.timer.unref();
    this.onStop = () => this.abort("stopped");
    if (stop.aborted) this.abort("stopped");
    else stop.addEventListener("abort", this.onStop, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get reason(): "timeout" | "stopped" | "too_large" | undefined {
    return this.why;
  }

  abort(why: "timeout" | "stopped" | "too_large"): void {
    if (this.why !== undefined) return;
    this.why = why;
    this.controller.abort(new Error(`request aborted: ${why}`));
  }

  /** Releases the timer and the listener; the attempt is over. */
  dispose(): void {
    clearTimeout(this.timer);
    this.stop.removeEventListener("abort", this.onStop);
  }
}
