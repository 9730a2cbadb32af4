import { z } from "zod";
import { parseApiCallFast } from "../api/schemas/apiCallFastPath.js";
import { type ApiCallWithPrice, ApiCallWithPriceSchema, isWellFormedText } from "../api/schemas/index.js";
import type { SecretBox } from "../secrets/secretBox.js";
import type { EndpointTemplater } from "./endpointTemplate.js";
import { inspectJson, MAX_RECORD_BYTES, storableText } from "./limits.js";
import { storedPrice } from "./money.js";
import { applyPolicy, POLICY_FIELDS, type PrivacyPolicy } from "./privacy.js";

/** One api_calls row as the loader writes it: exact values as strings, no floats on money. */
export interface ApiCallRow {
  id: string;
  user_id: string;
  org_id: string | null;
  method: string;
  endpoint: string | null;
  endpoint_template: string | null;
  status_code: number | null;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  updated_at: string;
  /** A safe integer, or the exact digits of one beyond 2^53 (DuckDB casts the text to BIGINT). */
  duration_raw: number | string | null;
  minutes: number | null;
  seconds: number | null;
  price_usd: string | null;
  /** The price as printed when price_usd is rounded from it (src/transform/money.ts). */
  price_raw: string | null;
  price_flags: string | null;
  token_hash: string | null;
  /**
   * The token's last 4 characters, as GET /user/api-tokens shows each token (ApiToken.token is
   * obfuscated to them): what matches a call to its token. Not the secret; null with --token-column drop.
   */
  token_last4: string | null;
  email: string | null;
  ip_address: string | null;
  origin: string | null;
  user_agent: string;
  request_query_params: string | null;
  stripe_invoice_item_id: string | null;
  /** Unknown fields as an object; the NDJSON spool nests it, and DuckDB stores it as JSON. */
  extra: Record<string, unknown> | null;
}

export interface TransformContext {
  templater: EndpointTemplater;
  secrets: SecretBox;
  privacy: PrivacyPolicy;
  maxPriceUsd: number;
}

export type TransformResult =
  | { ok: true; row: ApiCallRow }
  | { ok: false; reason: string; recordId: string | null };

/** A record that passed validation: the parsed call, and the raw object it came from. */
export type CheckResult =
  | { ok: true; call: ApiCallWithPrice; source: Record<string, unknown> }
  | { ok: false; reason: string; recordId: string | null };

export const KNOWN_FIELDS: ReadonlySet<string> = new Set(Object.keys(ApiCallWithPriceSchema.shape));

/** Validates one raw record and maps it to a row, or says precisely why it cannot be loaded. */
export function transformApiCall(raw: unknown, context: TransformContext): TransformResult {
  const checked = checkApiCall(raw, context);
  return checked.ok ? { ok: true, row: toRow(checked.call, checked.source, context) } : checked;
}

/**
 * Validates one raw record: the schema, then what the columns need beyond it (the price fits
 * DECIMAL(18,6) and the sanity limit, unknown fields are storable text, the row fits DuckDB's JSON
 * object limit). What passes loads. Ordinary records take the schema's fast path; zod judges the
 * rest and words their errors.
 */
export function checkApiCall(raw: unknown, context: TransformContext): CheckResult {
  let call = parseApiCallFast(raw);
  if (call === undefined) {
    const parsed = ApiCallWithPriceSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, reason: z.prettifyError(parsed.error), recordId: idOf(raw) };
    call = parsed.data;
  }
  const source = raw as Record<string, unknown>;
  if (call.price !== null && call.price !== undefined) {
    const price = storedPrice(call.price, context.maxPriceUsd);
    if (!price.ok) return rejectAt(raw, price.problem, "price");
  }
  // Characters of text the row holds, to tell cheaply whether it could be near DuckDB's limit.
  let textChars =
    call.user_agent.length +
    2 * lengthOf(call.endpoint) +
    lengthOf(call.email) +
    lengthOf(call.ip_address) +
    lengthOf(call.origin) +
    lengthOf(call.request_query_params) +
    lengthOf(call.stripe_invoice_item_id);
  for (const key in source) {
    if (KNOWN_FIELDS.has(key)) continue;
    if (!isWellFormedText(key))
      return rejectAt(raw, "field name holds a lone UTF-16 surrogate", storableText(key));
    const extra = inspectJson(key, source[key]);
    if (extra.issue !== undefined) return rejectAt(raw, extra.issue.problem, storableText(extra.issue.at));
    textChars += extra.chars;
  }
  // A character takes at most 6 bytes as JSON ("\u001f"): only a record that could be near the
  // limit is serialised to measure it.
  if (textChars * 6 + 4096 > MAX_RECORD_BYTES) {
    const bytes = Buffer.byteLength(JSON.stringify(toRow(call, source, context)));
    if (bytes > MAX_RECORD_BYTES)
      return rejectAt(
        raw,
        `record is ${bytes} bytes as a row, above the ${MAX_RECORD_BYTES}-byte limit on one JSON object the loader reads (DuckDB read_json maximum_object_size)`,
        "the whole record",
      );
  }
  return { ok: true, call, source };
}

function rejectAt(raw: unknown, problem: string, at: string): CheckResult {
  return { ok: false, reason: `✖ ${problem}\n  → at ${at}`, recordId: idOf(raw) };
}

function lengthOf(text: string | null | undefined): number {
  return typeof text === "string" ? text.length : 0;
}

/** The row of a validated call. */
export function toRow(
  call: ApiCallWithPrice,
  source: Record<string, unknown>,
  context: TransformContext,
): ApiCallRow {
  const hash = (value: string) => context.secrets.hash(value);
  const price =
    call.price === null || call.price === undefined
      ? undefined
      : storedPrice(call.price, context.maxPriceUsd);
  // checkApiCall refused every price that is not ok.
  const stored = price?.ok ? price.price : undefined;
  return {
    id: call.id,
    user_id: call.user_id,
    org_id: call.org_id ?? null,
    method: call.method,
    endpoint: call.endpoint ?? null,
    endpoint_template:
      call.endpoint === undefined || call.endpoint === null
        ? null
        : context.templater.templateOf(call.endpoint),
    status_code: call.status_code ?? null,
    created_at: toMicros(call.created_at),
    started_at: nullableTime(call.started_at),
    completed_at: nullableTime(call.completed_at),
    updated_at: toMicros(call.updated_at),
    duration_raw: typeof call.duration === "bigint" ? call.duration.toString() : (call.duration ?? null),
    minutes: call.minutes ?? null,
    seconds: call.seconds ?? null,
    price_usd: stored?.usd ?? null,
    price_raw: stored?.raw ?? null,
    price_flags: stored?.flags ?? null,
    token_hash: applyPolicy(call.token, context.privacy.token, hash),
    token_last4: context.privacy.token === "drop" ? null : call.token.slice(-4),
    email: applyPolicy(call.email, context.privacy.email, hash),
    ip_address: applyPolicy(call.ip_address, context.privacy.ipAddress, hash),
    origin: call.origin ?? null,
    user_agent: call.user_agent,
    request_query_params: call.request_query_params ?? null,
    stripe_invoice_item_id: call.stripe_invoice_item_id ?? null,
    extra: extraFields(source),
  };
}

/**
 * Fields this version does not know, kept as JSON so an API change never loses data. Defined as own
 * properties: an assignment to a field named `__proto__` would set the object's prototype instead
 * and vanish from the JSON.
 */
function extraFields(source: Record<string, unknown>): Record<string, unknown> | null {
  let extra: Record<string, unknown> | undefined;
  for (const key in source) {
    if (!KNOWN_FIELDS.has(key)) {
      extra ??= {};
      Object.defineProperty(extra, key, {
        value: source[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return extra ?? null;
}

/**
 * DuckDB keeps microseconds: extra fraction digits (RFC 3339 allows nanoseconds) are cut, not rounded.
 * RFC 3339 allows a lower-case "t" and "z", which DuckDB's TIMESTAMPTZ refuses: they are upper-cased.
 * Most times have one "." and at most 6 digits after it: returned as they are, without the regex
 * (4 per record, ~1M records per full scan).
 */
export function toMicros(written: string): string {
  const time =
    written.charCodeAt(10) === LETTER_LOWER_T || written.charCodeAt(written.length - 1) === LETTER_LOWER_Z
      ? written.toUpperCase()
      : written;
  const dot = time.indexOf(".");
  if (dot === -1 || (!isDigitAt(time, dot + 7) && time.indexOf(".", dot + 1) === -1)) return time;
  return time.replace(/(\.\d{6})\d+/, "$1");
}

/**
 * Microseconds since the epoch: Date.parse gives the milliseconds (V8 cuts the fraction there), the
 * 4th to 6th fraction digits the rest.
 */
export function epochMicros(time: string): number {
  const dot = time.indexOf(".");
  if (dot === -1) return Date.parse(time) * 1000;
  let end = dot + 1;
  while (isDigitAt(time, end)) end++;
  const subMillis = Number(`${time.slice(dot + 1, end)}000000`.slice(3, 6));
  return Date.parse(time) * 1000 + subMillis;
}

/**
 * True when RFC 3339 time `a` is an earlier instant than `b`. Two UTC times written alike (upper-case
 * T and Z, the same length, so the same number of fraction digits) compare as text, which is
 * chronological for that fixed layout: the case of nearly every pair, without two Date.parse calls.
 */
export function isEarlier(a: string, b: string): boolean {
  if (a.length === b.length && isUtcTime(a) && isUtcTime(b)) return a < b;
  return epochMicros(a) < epochMicros(b);
}

const LETTER_T = 84;
const LETTER_Z = 90;
const LETTER_LOWER_T = 116;
const LETTER_LOWER_Z = 122;

/** True when an RFC 3339 time is written `...T...Z`, upper case (UTC). */
export function isUtcTime(time: string): boolean {
  return time.charCodeAt(10) === LETTER_T && time.charCodeAt(time.length - 1) === LETTER_Z;
}

function isDigitAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 48 && code <= 57;
}

function nullableTime(time: string | null | undefined): string | null {
  return time === null || time === undefined ? null : toMicros(time);
}

function idOf(raw: unknown): string | null {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === "string" ? id.slice(0, 100) : null;
}

/**
 * A rejected record as it is kept in `rejects`: raw, except that the sensitive fields follow the same
 * policy as in api_calls, so a rejected record does not leak what an accepted one would not.
 */
export function rawForRejects(raw: unknown, context: TransformContext): string {
  let value = raw;
  if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) {
    const copy: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
    const hash = (text: string) => context.secrets.hash(text);
    for (const { field, policy } of POLICY_FIELDS) {
      if (field in copy)
        copy[field] =
          typeof copy[field] === "string"
            ? applyPolicy(copy[field], context.privacy[policy], hash)
            : copy[field];
    }
    value = copy;
  }
  try {
    // A duration beyond 2^53 arrives as a BigInt (src/api/exactJson.ts): kept as its digits.
    return JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v)) ?? String(value);
  } catch {
    return String(value);
  }
}
