/**
 * The largest row (one NDJSON line) or raw record the loader hands DuckDB: 16 MiB, DuckDB's default
 * read_json `maximum_object_size`. The read_json calls in sql/ pass twice this (32 MiB), so a raw
 * record that JSON escapes make somewhat longer than its row still reads, and a record the validator
 * lets through is never near DuckDB's limit. A bigger record is a reject naming its size.
 */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** The `maximum_object_size` every read_json in sql/ passes; test/hostile/poisonRecords.test.ts checks them. */
export const READ_JSON_MAX_OBJECT_BYTES = 2 * MAX_RECORD_BYTES;

/**
 * The longest `raw_json` a reject keeps, in characters: a record rejected for its size is kept cut
 * to this (marked as cut), so that its reject line still loads.
 */
export const MAX_REJECT_RAW_CHARS = 1024 * 1024;

/** `raw` cut to MAX_REJECT_RAW_CHARS, saying how long it was; unchanged when shorter. */
export function cutForReject(raw: string): string {
  if (raw.length <= MAX_REJECT_RAW_CHARS) return raw;
  return `${raw.slice(0, MAX_REJECT_RAW_CHARS)}... [cut: ${raw.length} characters in all]`;
}

const LONE_SURROGATE = /\p{Cs}/gu;

/**
 * Text with every lone surrogate replaced by U+FFFD: a reject's reason or id can quote what the
 * record held, and DuckDB's JSON reader refuses the escape of a lone surrogate.
 */
export function storableText(text: string): string {
  return text.replace(LONE_SURROGATE, "\uFFFD");
}

/**
 * The deepest nesting of a JSON value the loader stores: JSON.parse reads any depth, but
 * JSON.stringify (which writes the spool row) overflows V8's stack at a few thousand levels.
 */
export const MAX_JSON_DEPTH = 1000;

/** What makes a JSON value unstorable, and where (a path such as `request_body.notes[1]`). */
export interface JsonProblem {
  at: string;
  problem: string;
}

/**
 * Walks a parsed JSON value: the first string or key holding a lone surrogate (which no VARCHAR or
 * JSON column can store) or nesting deeper than MAX_JSON_DEPTH, and how many characters of text it
 * holds, counting a few for each number, literal and key (to bound the size of its JSON cheaply).
 */
export function inspectJson(path: string, value: unknown, depth = 0): { issue?: JsonProblem; chars: number } {
  if (typeof value === "string") {
    return LONE_SURROGATE_TEST.test(value)
      ? { issue: { at: path, problem: LONE_SURROGATE_PROBLEM }, chars: 0 }
      : { chars: value.length + 4 };
  }
  if (value === null || typeof value !== "object") return { chars: 32 };
  if (depth >= MAX_JSON_DEPTH)
    return { issue: { at: path, problem: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` }, chars: 0 };
  let chars = 2;
  const isArray = Array.isArray(value);
  for (const key of Object.keys(value)) {
    const child = isArray ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`;
    if (!isArray && LONE_SURROGATE_TEST.test(key))
      return { issue: { at: child, problem: LONE_SURROGATE_PROBLEM }, chars };
    const inner = inspectJson(child, (value as Record<string, unknown>)[key], depth + 1);
    if (inner.issue !== undefined) return inner;
    chars += inner.chars + key.length + 4;
  }
  return { chars };
}

const LONE_SURROGATE_TEST = /\p{Cs}/u;
export const LONE_SURROGATE_PROBLEM = "string holds a lone UTF-16 surrogate: not valid Unicode text";
