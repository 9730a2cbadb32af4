/** An API request as a gate sees it: the path and the query string, before anything is answered. */
export interface GatedRequest {
  path: string;
  query: URLSearchParams;
}

/**
 * Which API requests a gate holds: a number n lets the next n requests through and holds every one
 * after them; a predicate holds the requests it returns true for.
 */
export type HoldMatch = number | ((request: GatedRequest) => boolean);

/**
 * A test's handle on held requests. Tests synchronise on it instead of sleeping: while a request is
 * held the client is certainly waiting on it (mid-scan, holding its database), however fast or slow
 * the machine is.
 */
export interface RequestGate {
  /** Resolves when the first matching request is held. */
  readonly reached: Promise<void>;
  /** Requests held so far. */
  readonly held: number;
  /** Answers every held request and lets every later one through; the gate is gone. */
  release(): void;
}

interface Gate extends RequestGate {
  matches(request: GatedRequest): boolean;
  hold(): Promise<void>;
}

/** The open gates of one simulator. With none, a request is not delayed by a single turn. */
export class RequestGates {
  readonly #gates = new Set<Gate>();

  get active(): boolean {
    return this.#gates.size > 0;
  }

  add(match: HoldMatch): RequestGate {
    let passed = 0;
    const matches =
      typeof match === "number"
        ? () => {
            passed += 1;
            return passed > match;
          }
        : match;
    let held = 0;
    const reached = settleable();
    const released = settleable();
    const gates = this.#gates;
    const gate: Gate = {
      reached: reached.promise,
      get held() {
        return held;
      },
      release() {
        gates.delete(gate);
        released.settle();
      },
      matches,
      hold() {
        held += 1;
        reached.settle();
        return released.promise;
      },
    };
    gates.add(gate);
    return gate;
  }

  /** Waits while any gate holds this request. */
  async pass(request: GatedRequest): Promise<void> {
    for (const gate of [...this.#gates]) {
      if (gate.matches(request)) await gate.hold();
    }
  }

  releaseAll(): void {
    for (const gate of [...this.#gates]) gate.release();
  }
}

/** A promise and the function that resolves it (Promise.withResolvers is newer than Node 20). */
function settleable(): { promise: Promise<void>; settle: () => void } {
  let settle: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}
