import type { ZooClient } from "../api/client.js";
import type { ApiScope } from "../api/scope.js";
import { ZooUsageError } from "../errors.js";
import { forEachConcurrently } from "./forEachConcurrently.js";

/** What GET /user/api-calls/{id} (or /org/...) answered for one id: its body, or 404. */
export type CallAnswer = { id: string; found: true; body: unknown } | { id: string; found: false };

/**
 * Asks GET /user/api-calls/{id} (or /org/api-calls/{id} in org scope) for each id, `concurrency` at a time, and hands each answer to
 * `onAnswer` as it comes. A 404 is an answer; any other failure stops the asking (the requests in
 * flight end) and is returned rather than thrown, so that the caller can store what was answered
 * first. Stops taking new ids when `signal` aborts.
 */
export async function fetchCallsById(
  client: ZooClient,
  ids: readonly string[],
  options: { concurrency: number; signal: AbortSignal; scope?: ApiScope },
  onAnswer: (answer: CallAnswer) => void,
): Promise<{ failure: unknown } | undefined> {
  let failure: { failure: unknown } | undefined;
  await forEachConcurrently(ids, options.concurrency, options.signal, async (id) => {
    if (failure !== undefined) return;
    let body: unknown;
    try {
      body = (await client.getApiCall(id, options.scope)).body;
    } catch (error) {
      if (error instanceof ZooUsageError && error.code === "api.not_found") onAnswer({ id, found: false });
      else failure = { failure: error };
      return;
    }
    onAnswer({ id, found: true, body });
  });
  return failure;
}
