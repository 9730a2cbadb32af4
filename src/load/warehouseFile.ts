import { open, stat } from "node:fs/promises";
import path from "node:path";
import { ZooUsageError } from "../errors.js";

/**
 * DuckDB's storage format starts with an 8-byte checksum followed by the magic bytes "DUCK"
 * (DuckDB's MainHeader::MAGIC_BYTES, written at offset 8 of every database file).
 */
const DUCKDB_MAGIC = Buffer.from("DUCK");
const DUCKDB_MAGIC_OFFSET = 8;

/** Leading bytes of files people point --db at by mistake, and what to call them in the message. */
const KNOWN_MAGIC: readonly { bytes: Buffer; what: string }[] = [
  { bytes: Buffer.from("PAR1"), what: "a Parquet file" },
  { bytes: Buffer.from("SQLite format 3\0"), what: "an SQLite database" },
  { bytes: Buffer.from([0x1f, 0x8b]), what: "a gzip file" },
  { bytes: Buffer.from("PK\x03\x04", "latin1"), what: "a zip file (an .xlsx workbook?)" },
  { bytes: Buffer.from("ARROW1"), what: "an Arrow file" },
];

/**
 * Names DuckDB does not take as a file path: ":memory:" (an in-memory database) and "scheme:..."
 * (md: for MotherDuck, s3:, http:...). zoo-usage resolves --db to an absolute path first, so DuckDB
 * would create a local file with that odd name instead; either way nothing a later run can resume.
 * One letter before the colon is a Windows drive, a path.
 */
const SPECIAL_NAME = /^(:memory:|[a-z][a-z0-9+.-]+:)/i;

/**
 * Refuses a --db that names no file: empty, ":memory:", or a URL. Pure, for the configuration,
 * which makes the path absolute (and so hides what was asked for); `source` names where the path
 * came from in the message.
 */
export function assertWarehouseName(dbPath: string, source = "--db"): void {
  if (dbPath.trim() === "") {
    throw notAWarehouse(dbPath, "is empty", "Give --db the path of a DuckDB file (new or existing).", source);
  }
  if (SPECIAL_NAME.test(dbPath)) {
    throw notAWarehouse(
      dbPath,
      "is a DuckDB special name or URL, not a file path",
      "The warehouse must be a local file: each run resumes from what the last one stored in it. Give --db a file path (to use a name with a colon, start it with ./).",
      source,
    );
  }
}

/**
 * Refuses a --db that cannot be a zoo-usage warehouse before DuckDB sees it. DuckDB attaches an
 * existing CSV or Parquet file as an empty in-memory database, without an error: an export into it
 * "completes" and stores nothing. Nothing is created or changed here.
 */
export async function assertWarehousePath(dbPath: string): Promise<void> {
  assertWarehouseName(dbPath);
  const resolved = path.resolve(dbPath);
  const stats = await stat(resolved).catch(() => undefined);
  if (stats === undefined) return;
  if (!stats.isFile()) {
    throw notAWarehouse(
      resolved,
      stats.isDirectory() ? "is a directory" : "is not a regular file",
      "Give --db the path of a DuckDB file (new or existing), not a directory.",
    );
  }
  const head = await readHead(resolved);
  if (head.subarray(DUCKDB_MAGIC_OFFSET, DUCKDB_MAGIC_OFFSET + DUCKDB_MAGIC.length).equals(DUCKDB_MAGIC)) {
    return;
  }
  throw notAWarehouse(
    resolved,
    `is not a DuckDB database: it looks like ${describeContent(head)}`,
    "Point --db at a zoo-usage DuckDB file, or at a path that does not exist yet (it is created). The file was not changed.",
  );
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(512);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** What a file's first bytes suggest it is, for the message. */
export function describeContent(head: Buffer): string {
  if (head.length === 0) return "an empty file";
  const known = KNOWN_MAGIC.find(({ bytes }) => head.subarray(0, bytes.length).equals(bytes));
  if (known !== undefined) return known.what;
  // Text: no control bytes but tab, LF and CR (UTF-8 multi-byte characters are all >= 0x80).
  const isText = head.every((byte) => byte >= 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d);
  if (!isText) return "a file of another format";
  return looksDelimited(head.toString("utf8")) ? "a CSV file (or other delimited text)" : "a text file";
}

/** The first two lines split into the same number (more than one) of fields by one delimiter. */
function looksDelimited(text: string): boolean {
  const [first, second] = text.split(/\r?\n/);
  if (first === undefined || second === undefined || second === "") return false;
  return [",", ";", "\t", "|"].some((delimiter) => {
    const fields = first.split(delimiter).length;
    return fields > 1 && second.split(delimiter).length === fields;
  });
}

/** `source` is what the path came from, as the user wrote it: --db or ZOO_USAGE_DB. */
function notAWarehouse(dbPath: string, problem: string, hint: string, source = "--db"): ZooUsageError {
  return new ZooUsageError({
    code: "warehouse.not_duckdb",
    message: `${source} ${JSON.stringify(dbPath)} ${problem}`,
    hint,
  });
}
