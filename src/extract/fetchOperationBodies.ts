import type { ZooClient } from "../api/client.js";
import type { MeasuredOutput } from "../api/outputSize.js";
import { ZooUsageError } from "../errors.js";
import { AdaptiveConcurrency } from "./adaptiveConcurrency.js";
import { fetchConcurrently } from "./fetchConcurrently.js";

/** Where the adaptive concurrency starts: low enough to be polite, high enough to get going. */
const START_CONCURRENCY = 4;

/** What GET /async/operations/{id} answered for one id, and when. */
export type OperationAnswer =
  | {
      kind: "found";
      id: string;
      fetchedAt: string;
      body: unknown;
      outputSizes: Map<string, MeasuredOutput> | undefined;
    }
  /** 404: the operation is gone (or never was). */
  | { kind: "not_found"; id: string; fetchedAt: string }
  /** The body is over the size limit: it is as large next time, so it is not worth asking again. */
  | { kind: "too_large"; id: string; fetchedAt: string; reason: string };

/** Requests in flight allowed at the start, the most reached, and at the end. */
export interface ConcurrencyTrace {
  start: number;
  peak: number;
  final: number;
}

export interface OperationBodiesOptions {
  /** The next ids to fetch, in order; empty when there are none left. */
  nextIds: () => Promise<readonly string[]>;
  /** The most requests in flight: the pace starts lower and adapts to how the API answers. */
  concurrency: number;
  /** Stops asking for new ids: the answers of the requests in flight come last. */
  signal: AbortSignal;
  now: () => Date;
}

export interface OperationBodies {
  /** The answers in groups, each what was answered since the previous one (fetchConcurrently). */
  answers: AsyncIterable<OperationAnswer[]>;
  /** The pace so far: where it started, its peak, where it is now. */
  concurrency: () => ConcurrencyTrace;
}

/**
 * Fetches GET /async/operations/{id} for every id `nextIds` hands out, with as many requests in
 * flight as AdaptiveConcurrency allows (up to `concurrency`), and hands out the answers in groups
 * while requests keep going out. A 404 and a body too large to store are answers; any other
 * failure stops the fetch: the requests in flight end, their answers come, and the error is thrown.
 * Knows no warehouse: where ids come from and where answers go is the caller's.
 */
export function fetchOperationBodies(client: ZooClient, options: OperationBodiesOptions): OperationBodies {
  const controller = new AdaptiveConcurrency({
    start: Math.min(START_CONCURRENCY, options.concurrency),
    cap: options.concurrency,
  });
  const start = controller.limit;
  const answers = fetchConcurrently<string, OperationAnswer>({
    nextChunk: options.nextIds,
    fetch: (id, refused) => fetchOperationBody(client, id, options.now, refused),
    controller,
    signal: options.signal,
  });
  return { answers, concurrency: () => ({ start, peak: controller.peak, final: controller.limit }) };
}

/** One operation's answer, or the error that should stop the fetch. */
async function fetchOperationBody(
  client: ZooClient,
  id: string,
  now: () => Date,
  refused: () => void,
): Promise<OperationAnswer> {
  try {
    const { body, outputSizes } = await client.getAsyncOperationRaw(id, { onRetry: refused });
    return { kind: "found", id, fetchedAt: now().toISOString(), body, outputSizes };
  } catch (error) {
    if (error instanceof ZooUsageError && error.code === "api.not_found") {
      return { kind: "not_found", id, fetchedAt: now().toISOString() };
    }
    if (error instanceof ZooUsageError && error.code === "api.response_too_large") {
      return { kind: "too_large", id, fetchedAt: now().toISOString(), reason: error.message };
    }
    throw error;
  }
}
