import { createWriteStream, type WriteStream } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { finished } from "node:stream/promises";
import { asStorageError } from "./storageError.js";

/**
 * NDJSON spool files: DuckDB's read_json with explicit column types loads them faster than
 * row-by-row appends or bound INSERTs. Files live in the run's private spool folder and are removed
 * after each load.
 */
export class Spool {
  private sequence = 0;
  private readonly files: string[] = [];

  constructor(
    private readonly dir: string,
    private readonly runId: string,
  ) {}

  async write(kind: string, lines: readonly string[]): Promise<string> {
    this.sequence += 1;
    const file = path.join(this.dir, `${this.runId}-${this.sequence}-${kind}.ndjson`);
    this.files.push(file);
    try {
      await writeFile(file, `${lines.join("\n")}\n`, { mode: 0o600 });
    } catch (error) {
      throw asStorageError(error, `the spool file ${file}`);
    }
    return file;
  }

  /** Removes the files written since the last cleanup. */
  async cleanup(): Promise<void> {
    const files = this.files.splice(0);
    await Promise.all(files.map((file) => rm(file, { force: true })));
  }
}

/** A spool file written as the scan goes, through one stream, and read by DuckDB at commit time. */
abstract class StreamedSpoolFile {
  /** Records appended so far. */
  count = 0;
  private stream: WriteStream | undefined;

  constructor(readonly file: string) {}

  protected write(data: string | Buffer): void {
    if (this.stream === undefined) {
      this.stream = createWriteStream(this.file, { mode: 0o600 });
      // A failed write (disk full, a file-size limit) is reported by finish(), as the batch's
      // failure; without a listener it would crash the process with an unhandled 'error' event.
      this.stream.on("error", () => undefined);
    }
    this.stream.write(data);
  }

  /** What finish() writes last, after everything appended. */
  protected closing(): string {
    return "";
  }

  /** Flushes and closes the file; its path, or undefined when nothing was appended. */
  async finish(): Promise<string | undefined> {
    const stream = this.stream;
    if (stream === undefined) return undefined;
    try {
      stream.end(this.closing());
      await finished(stream);
    } catch (error) {
      throw asStorageError(error, `the spool file ${this.file}`);
    }
    return this.file;
  }

  async remove(): Promise<void> {
    this.stream?.destroy();
    await rm(this.file, { force: true });
  }
}

/**
 * One batch's transformed rows as NDJSON, appended page by page to the batch's own spool file as
 * they are transformed, instead of being held as strings until the commit (tens of MB per batch,
 * twice with one batch in flight, plus the joined copy written at commit time).
 */
export class RowSpool extends StreamedSpoolFile {
  /** Characters appended so far (bytes, give or take the non-ASCII ones). */
  bytes = 0;

  append(lines: readonly string[]): void {
    if (lines.length === 0) return;
    const text = `${lines.join("\n")}\n`;
    this.write(text);
    this.count += lines.length;
    this.bytes += text.length;
  }
}

/**
 * One batch's raw records as one JSON array: each item's bytes as the server sent them, joined.
 * DuckDB reads it as fast as NDJSON (format 'array'); JavaScript never serialises those records,
 * nor even encodes them again. Items that lay side by side in one body (the usual page: all of
 * them) are written as the one stretch of that body they span, commas included, without a copy.
 */
export class ItemsSpool extends StreamedSpoolFile {
  /** Bytes appended so far. */
  bytes = 0;

  append(items: readonly Buffer[]): void {
    let run: Buffer | undefined;
    for (const item of items) {
      if (run !== undefined && follows(run, item)) {
        run = Buffer.from(run.buffer, run.byteOffset, item.byteOffset + item.length - run.byteOffset);
        continue;
      }
      if (run !== undefined) this.writeItems(run);
      run = item;
    }
    if (run !== undefined) this.writeItems(run);
    this.count += items.length;
  }

  private writeItems(run: Buffer): void {
    this.write(this.bytes === 0 ? "[" : ",");
    this.write(run);
    this.bytes += run.length + 1;
  }

  protected override closing(): string {
    return "]";
  }
}

/** True when `item` starts one comma after `run` ends, in the same memory: `run,item`. */
function follows(run: Buffer, item: Buffer): boolean {
  return (
    item.buffer === run.buffer &&
    item.byteOffset === run.byteOffset + run.length + 1 &&
    run.buffer instanceof ArrayBuffer &&
    new Uint8Array(run.buffer, run.byteOffset + run.length, 1)[0] === COMMA
  );
}

const COMMA = 0x2c;
