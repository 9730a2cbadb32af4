import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";

/**
 * The error codes of refusals, which Zoo's 403 and 404 bodies carry (the spec's Error.error_code):
 * a refusal given without one gets its status's code.
 */
export const FORBIDDEN = "Forbidden";
const CODE_OF_STATUS: Readonly<Record<number, string>> = { 403: FORBIDDEN, 404: "ObjectNotFound" };

/** What a route decided to send; the server adds the common headers and applies faults. */
export interface Reply {
  status: number;
  body: string | Buffer;
  headers?: Record<string, string>;
}

/**
 * An error reply as Dropshot writes it: its HttpErrorResponseBody (`request_id`, `error_code`,
 * `message`, in that order) pretty-printed with two-space indents, as serde_json's pretty printer
 * does. `error_code` is omitted (not null) when there is none (spec: Error.error_code is optional,
 * not nullable); `request_id` repeats the x-request-id header.
 */
export function errorReply(
  requestId: string,
  status: number,
  message: string,
  errorCode?: string,
  headers?: Record<string, string>,
): Reply {
  const code = errorCode ?? CODE_OF_STATUS[status];
  const fields =
    code === undefined
      ? { request_id: requestId, message }
      : { request_id: requestId, error_code: code, message };
  const body = JSON.stringify(fields, null, 2);
  return headers === undefined ? { status, body } : { status, body, headers };
}

export function newRequestId(): string {
  return randomUUID();
}

/**
 * Sends a reply. Every response carries x-request-id; successful ones also X-Api-Call-Id (spec: a
 * required header of every 200). With `truncate`, the headers promise the full body but only half
 * of it is sent before the connection is destroyed, as a proxy dying mid-response would.
 */
export function send(res: ServerResponse, requestId: string, reply: Reply, truncate = false): void {
  const body = typeof reply.body === "string" ? Buffer.from(reply.body) : reply.body;
  const headers: Record<string, string | number> = {
    "content-type": "application/json",
    "content-length": body.length,
    "x-request-id": requestId,
    ...reply.headers,
  };
  // A reply that was recorded as a call carries that call's id; the others get a fresh one.
  if (reply.status < 400 && headers["x-api-call-id"] === undefined) headers["x-api-call-id"] = randomUUID();
  res.writeHead(reply.status, headers);
  if (!truncate) {
    res.end(body);
    return;
  }
  res.write(body.subarray(0, Math.floor(body.length / 2)), () => {
    res.socket?.destroy();
  });
}
