/** A partition file's size and its first and last bytes: what a Parquet check reads of it. */
export interface ObjectEnds {
  size: number;
  /** The first PARQUET_HEAD_BYTES (fewer when the file is shorter). */
  head: Uint8Array;
  /** The last PARQUET_TAIL_BYTES (fewer when the file is shorter). */
  tail: Uint8Array;
}

/** Parquet's magic, "PAR1", at both ends of every file. */
const MAGIC = Buffer.from("PAR1", "ascii");
export const PARQUET_HEAD_BYTES = MAGIC.length;
/** The footer's length (4 bytes, little-endian) then the magic. */
export const PARQUET_TAIL_BYTES = 4 + MAGIC.length;

/**
 * Why a file is not a readable Parquet file, or undefined when its frame is whole: the magic at both
 * ends and a footer that fits between them. A file cut short, which DuckDB refuses with "No magic
 * bytes found at end of file", fails here without reading more than its two ends.
 */
export function parquetProblem(file: ObjectEnds): string | undefined {
  if (file.size === 0) return "it is empty";
  if (file.size < PARQUET_HEAD_BYTES + PARQUET_TAIL_BYTES) return `it holds only ${file.size} bytes`;
  if (!MAGIC.equals(Buffer.from(file.head.subarray(0, MAGIC.length)))) return "it does not start with PAR1";
  const tail = Buffer.from(file.tail);
  if (tail.length !== PARQUET_TAIL_BYTES || !MAGIC.equals(tail.subarray(4)))
    return "it does not end with PAR1 (cut short?)";
  const footer = tail.readUInt32LE(0);
  if (footer + PARQUET_HEAD_BYTES + PARQUET_TAIL_BYTES > file.size)
    return `its footer of ${footer} bytes does not fit in its ${file.size} bytes`;
  return undefined;
}
