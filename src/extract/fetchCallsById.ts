import type { ZooClient } from "../api/client.js";
import type { ApiScope } from "../api/scope.js";
import { ZooUsageError } from "../errors.js";
import { AdaptiveConcurrency } from "./adaptiveConcurrency.js";
import { fetchConcurrently } from "./fetchConcurrently.js";

/** Where the adaptive concurrency starts: low enough to be polite, high enough to get going. */
const START_CONCURRENCY = 4;

/** What GET /user/api-calls/{id} (or /org/...) answered for one id: its body, or 404. */
export type CallAnswer = { id: string; found: true; body: unknown } | { id: string; found: false };

/**
 * Asks GET /user/api-calls/{id} (or /org/api-calls/{id} in org scope) for each id, with as many
 * requests in flight as AdaptiveConcurrency allows (up to `concurrency`; a 429 or 5xx halves it, as
 * for the operations), and hands each answer to `onAnswer` as it comes. A 404 is an answer; any
 * other failure stops the asking (the requests in flight end and their answers are handed out) and
 * is returned rather than thrown, so that the caller can store what was answered first. Stops
 * taking new ids when `signal` aborts.
 */
export async function fetchCallsById(
  client: ZooClient,
  ids: readonly string[],
  options: { concurrency: number; signal: AbortSignal; scope?: ApiScope },
  onAnswer: (answer: CallAnswer) => void,
): Promise<{ failure: unknown } | undefined> {
  const controller = new AdaptiveConcurrency({
    start: Math.min(START_CONCURRENCY, options.concurrency),
    cap: options.concurrency,
  });
  let handedOut = false;
  const answers = fetchConcurrently<string, CallAnswer>({
    nextChunk: async () => {
      if (handedOut) return [];
      handedOut = true;
      return ids;
    },
    fetch: (id, refused) => fetchCall(client, id, options.scope, refused),
    controller,
    signal: options.signal,
  });
  try {
    for await (const group of answers) for (const answer of group) onAnswer(answer);
  } catch (error) {
    return { failure: error };
  }
  return undefined;
}

/** One call's answer (a 404 included), or the error that should stop the asking. */
async function fetchCall(
  client: ZooClient,
  id: string,
  scope: ApiScope | undefined,
  refused: () => void,
): Promise<CallAnswer> {
  try {
    const { body } = await client.getApiCall(id, scope, { onRetry: refused });
    return { id, found: true, body };
  } catch (error) {
    if (error instanceof ZooUsageError && error.code === "api.not_found") return { id, found: false };
    throw error;
  }
}
