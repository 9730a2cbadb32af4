import { stringifyWithNumberTexts } from "../api/exactJson.js";
import { isWellFormedText } from "../api/schemas/index.js";
import { inspectJson, LONE_SURROGATE_PROBLEM, MAX_RECORD_BYTES, storableText } from "./limits.js";
import { storedPrice } from "./money.js";

/**
 * How an account record (an invoice, a token, a balance) is written as the rows it becomes, under
 * the rules every record follows: any text survives that a VARCHAR or JSON column can hold, a key
 * named `__proto__` is a key like any other, and what cannot be stored is a reason for `rejects`.
 */

/**
 * JSON object text of the own keys of `record` that `keep` accepts, each value as it was sent
 * (numbers with their digits), or null when there are none. Written key by key: an object built by
 * assignment would lose a key named `__proto__`, which sets the prototype instead.
 */
export function objectJson(record: object, keep: (key: string) => boolean = () => true): string | null {
  const fields: string[] = [];
  for (const key of Object.keys(record)) {
    if (keep(key))
      fields.push(
        `${JSON.stringify(key)}:${stringifyWithNumberTexts((record as Record<string, unknown>)[key])}`,
      );
  }
  return fields.length === 0 ? null : `{${fields.join(",")}}`;
}

/**
 * Why the own keys of `record` that `keep` accepts, and their values, cannot be stored as JSON (a
 * lone surrogate in a key or a string, nesting deeper than MAX_JSON_DEPTH), or undefined.
 * `path` prefixes the place named ("metadata", "lines[2].extra").
 */
export function keysProblem(
  record: object,
  path: string,
  keep: (key: string) => boolean = () => true,
): string | undefined {
  for (const key of Object.keys(record)) {
    if (!keep(key)) continue;
    const at = path === "" ? key : `${path}.${key}`;
    if (!isWellFormedText(key)) return `${LONE_SURROGATE_PROBLEM} (at ${storableText(at)})`;
    const issue = inspectJson(at, (record as Record<string, unknown>)[key]).issue;
    if (issue !== undefined) return `${issue.problem} (at ${storableText(issue.at)})`;
  }
  return undefined;
}

/**
 * A refused record's JSON for rejects.raw_json, numbers as sent. A record nested too deeply for a
 * recursive writer (V8's JSON.stringify too overflows the stack at some thousands of levels) is
 * kept as a note saying so: its reject must not fail the listing it came in.
 */
export function rawJsonForReject(value: unknown): string {
  try {
    return stringifyWithNumberTexts(value);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return JSON.stringify({ not_kept: "the record is nested too deeply to write as JSON" });
  }
}

/** What `rowBytes` counts: the values bound for one record's rows. */
type Bound = string | number | boolean | null;

/** The UTF-8 bytes of the text a record's rows hold (numbers and flags count a few each). */
export function rowBytes(rows: ReadonlyArray<readonly Bound[]>): number {
  let bytes = 0;
  for (const row of rows)
    for (const value of row) bytes += typeof value === "string" ? Buffer.byteLength(value) : 8;
  return bytes;
}

/** The reject reason of a record whose rows hold more than MAX_RECORD_BYTES, or undefined. */
export function oversizeProblem(bytes: number): string | undefined {
  return bytes > MAX_RECORD_BYTES
    ? `record is ${bytes} bytes as rows, above the ${MAX_RECORD_BYTES}-byte limit on one record the loader stores`
    : undefined;
}

/** Money columns as stored: each amount, the printed text of those rounded, and the flag. */
export type AmountsResult =
  | {
      ok: true;
      usd: ReadonlyMap<string, string>;
      /** JSON object of the rounded columns' text as printed (money_raw), or null. */
      raw: string | null;
      /** "rounded" when an amount was rounded to the micro-dollar (money_flags), or null. */
      flags: string | null;
    }
  | { ok: false; reason: string };

/**
 * A record's money as its DECIMAL(18,6) columns store it, by the calls' rule (src/transform/money.ts):
 * exact, or rounded half-even with the printed text kept. Only an amount beyond 12 integer digits is
 * refused: no sanity limit applies to an invoice's or a balance's total.
 */
export function storedAmounts(amounts: ReadonlyArray<readonly [string, string]>): AmountsResult {
  const usd = new Map<string, string>();
  const raw: string[] = [];
  for (const [column, decimal] of amounts) {
    const stored = storedPrice(decimal, Number.POSITIVE_INFINITY, "amount");
    if (!stored.ok) return { ok: false, reason: `${stored.problem} (at ${column})` };
    usd.set(column, stored.price.usd);
    if (stored.price.raw !== null) raw.push(`${JSON.stringify(column)}:${JSON.stringify(stored.price.raw)}`);
  }
  return raw.length === 0
    ? { ok: true, usd, raw: null, flags: null }
    : { ok: true, usd, raw: `{${raw.join(",")}}`, flags: "rounded" };
}
