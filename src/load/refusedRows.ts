import { rm } from "node:fs/promises";
import { cutForReject, storableText } from "../transform/limits.js";
import type { Spool } from "./spool.js";

// The loaders' safety net behind the validator: when DuckDB refuses a batch because of some rows'
// data, those rows are found and rejected with DuckDB's reason, and the rest commits.

/** One row of the rejects table: a record that could not be loaded, with the reason. */
export interface RejectRow {
  run_id: string;
  rejected_at: string;
  record_id: string | null;
  reason: string;
  raw_json: string;
}

/**
 * A reject as the rejects table can hold it. Its texts may quote what the record held: a lone
 * surrogate becomes U+FFFD (DuckDB refuses it), and a huge raw record is cut.
 */
export function storableReject(reject: RejectRow): RejectRow {
  return {
    ...reject,
    record_id: reject.record_id === null ? null : storableText(reject.record_id),
    reason: storableText(cutForReject(reject.reason)),
    raw_json: storableText(cutForReject(reject.raw_json)),
  };
}

/** A reject as one NDJSON line of a batch's spool file (storableReject: the line loads). */
export function serializeReject(reject: RejectRow): string {
  return JSON.stringify(storableReject(reject));
}

/** An error of DuckDB reading or casting a spool file's records (not of storage). */
export function isReadError(error: unknown): boolean {
  return /^(Invalid Input|Conversion) Error/.test(error instanceof Error ? error.message : "");
}

/**
 * The lines `probe` refuses, each with its reason, found by halving: a few probes per refused line
 * (about 2 log2 n each), and one for a batch DuckDB reads whole.
 */
export async function findUnreadable<Line = string>(
  lines: readonly Line[],
  probe: (lines: readonly Line[]) => Promise<string | undefined>,
): Promise<{ line: Line; reason: string }[]> {
  if (lines.length === 0) return [];
  const reason = await probe(lines);
  if (reason === undefined) return [];
  if (lines.length === 1) return [{ line: lines[0] as Line, reason }];
  const middle = Math.ceil(lines.length / 2);
  return [
    ...(await findUnreadable(lines.slice(0, middle), probe)),
    ...(await findUnreadable(lines.slice(middle), probe)),
  ];
}

/** The id of a spool row, for its reject. */
export function idOfLine(line: string): string | null {
  try {
    const id = (JSON.parse(line) as { id?: unknown }).id;
    return typeof id === "string" ? id.slice(0, 100) : null;
  } catch {
    return null;
  }
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}

/**
 * The rows of a batch DuckDB refused, apart from the rest: `probe` says why DuckDB refuses a set of
 * lines (readProbe). When none or every one is refused, it is not about some rows' data, and
 * `error` (the batch's failure) stands.
 */
export async function separateRefused(
  lines: readonly string[],
  probe: (lines: readonly string[]) => Promise<string | undefined>,
  error: unknown,
): Promise<{ kept: string[]; refused: { line: string; reason: string }[] }> {
  const refused = await findUnreadable(lines, probe);
  if (refused.length === 0 || refused.length === lines.length) throw error;
  const refusedLines = new Set(refused.map(({ line }) => line));
  return { kept: lines.filter((line) => !refusedLines.has(line)), refused };
}

/**
 * A probe for separateRefused: writes the lines to a spool file and runs `read` on it (statements
 * that make DuckDB read and type every row); DuckDB's reason when it refuses, else undefined.
 */
export function readProbe(
  spool: Spool,
  read: (file: string) => Promise<void>,
): (lines: readonly string[]) => Promise<string | undefined> {
  return async (lines) => {
    const file = await spool.write("probe", lines);
    try {
      await read(file);
      return undefined;
    } catch (error) {
      if (!isReadError(error)) throw error;
      return firstLine(error);
    } finally {
      await rm(file, { force: true });
    }
  };
}
