import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";

/**
 * Reads a Hive-partitioned dataset with hyparquet: a reader independent of DuckDB, the writer.
 * Prices come back as floats (hyparquet scales DECIMAL by 10^-scale); below 9e9 USD rounding
 * x * 1e6 recovers the exact micro-dollar integer, which is what the tests compare.
 */
export async function readDataset(
  dir: string,
): Promise<{ files: string[]; rows: Record<string, unknown>[] }> {
  const files: string[] = [];
  for (const partition of (await readdir(dir).catch(() => [] as string[])).sort()) {
    for (const file of await readdir(path.join(dir, partition)).catch(() => [] as string[])) {
      files.push(path.join(dir, partition, file));
    }
  }
  const rows: Record<string, unknown>[] = [];
  for (const file of files.filter((name) => name.endsWith(".parquet"))) {
    const bytes = await readFile(file);
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const objects = await parquetReadObjects({
      file: buffer,
      compressors,
      parsers: { timestampFromMicroseconds: (micros: bigint) => micros },
    });
    const partition = path.basename(path.dirname(file));
    for (const object of objects) rows.push({ ...object, __partition: partition });
  }
  return { files, rows };
}

export async function parquetColumnTypes(file: string): Promise<Record<string, string>> {
  const bytes = await readFile(file);
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const types: Record<string, string> = {};
  for (const element of metadata.schema.slice(1)) {
    types[element.name] = JSON.stringify({
      type: element.type,
      logical: element.logical_type,
      converted: element.converted_type,
      scale: element.scale,
      precision: element.precision,
    });
  }
  return types;
}

/** The compression codecs a Parquet file's column chunks use, each named once ("ZSTD", ...). */
export async function parquetCodecs(file: string): Promise<string[]> {
  const bytes = await readFile(file);
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const codecs = metadata.row_groups.flatMap((group) =>
    group.columns.map((column) => String(column.meta_data?.codec)),
  );
  return [...new Set(codecs)];
}

export function microsOf(price: unknown): bigint | null {
  if (price === null || price === undefined) return null;
  return BigInt(Math.round(Number(price) * 1e6));
}
