import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { S3Client } from "@aws-sdk/client-s3";
import { interrupted } from "../api/attemptFailure.js";
import type { RetryPolicy } from "../api/retryPolicy.js";
import { type ObjectEnds, PARQUET_HEAD_BYTES, PARQUET_TAIL_BYTES } from "./parquetShape.js";
import { s3Failure } from "./s3Failure.js";
import { ListingGuard } from "./s3ListingGuard.js";
import { type S3Location, s3Key, s3Url } from "./s3Location.js";
import { S3RetryStrategy } from "./s3Retry.js";
import { type S3Settings, usesPathStyle } from "./s3Settings.js";
import { expectStoredSize } from "./storedSize.js";

type ClientModule = typeof import("@aws-sdk/client-s3");
type StorageModule = typeof import("@aws-sdk/lib-storage");

/**
 * Multipart part size. S3's minimum is 5 MiB; a month's partition of a large account is tens of
 * MiB, so 8 MiB parts send it as a few parts in parallel while a day's partition is one PUT.
 */
const PART_BYTES = 8 * 1024 * 1024;
/** Parts of one upload in flight at once. */
const PARTS_IN_FLIGHT = 4;

/**
 * The operations the Parquet destination needs on one bucket prefix, each failure mapped to
 * s3Failure. Made by openS3Bucket; the SDK is loaded only then, so a local --out never loads it.
 */
export class S3Bucket {
  constructor(
    private readonly sdk: ClientModule,
    private readonly storage: StorageModule,
    private readonly client: S3Client,
    readonly location: S3Location,
    private readonly retry: S3RetryStrategy,
    private readonly limits: S3Limits,
    /** The run's own key id, secret key and session token: redacted from the store's messages. */
    private readonly secrets: readonly string[],
  ) {}

  /** The retries made so far (throttling, network errors, 5xx). */
  get retries(): number {
    return this.retry.retries;
  }

  get url(): string {
    return s3Url(this.location);
  }

  key(...parts: readonly string[]): string {
    return s3Key(this.location, ...parts);
  }

  /**
   * Every key under a path of the prefix (ListObjectsV2, page after page), each once. A listing
   * that does not advance stops as an S3ListingAnomaly (s3ListingGuard.ts).
   */
  async keysUnder(...parts: readonly string[]): Promise<string[]> {
    return (await this.objectsUnder(...parts)).map((object) => object.key);
  }

  /** Every object under a path of the prefix, with its size as the listing gives it. */
  async objectsUnder(...parts: readonly string[]): Promise<{ key: string; size: number }[]> {
    const prefix = `${this.key(...parts)}/`;
    const listing = `s3://${this.location.bucket}/${prefix === "/" ? "" : prefix}`;
    const guard = new ListingGuard(listing);
    const sizes = new Map<string, number>();
    let token: string | undefined;
    do {
      const page = await this.send(`list ${listing}`, () =>
        this.client.send(
          new this.sdk.ListObjectsV2Command({
            Bucket: this.location.bucket,
            Prefix: prefix === "/" ? undefined : prefix,
            ContinuationToken: token,
            MaxKeys: this.limits.listPageSize ?? 1000,
          }),
        ),
      );
      const keys: string[] = [];
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        keys.push(object.Key);
        sizes.set(object.Key, object.Size ?? 0);
      }
      token = guard.page(keys, page.IsTruncated === true, page.NextContinuationToken);
    } while (token !== undefined);
    return guard.seen.map((key) => ({ key, size: sizes.get(key) ?? 0 }));
  }

  /**
   * An object's first and last bytes, as a Parquet check needs them: two ranged GETs, never the
   * whole object. The last bytes are asked by offset from the listed size, not as a suffix range
   * (bytes=-8), which not every S3-compatible store takes (s3rver reads it from the start).
   */
  async objectEnds(key: string, size: number): Promise<ObjectEnds> {
    const range = async (bytes: string) =>
      this.send(`read s3://${this.location.bucket}/${key}`, async () => {
        const object = await this.client.send(
          new this.sdk.GetObjectCommand({ Bucket: this.location.bucket, Key: key, Range: `bytes=${bytes}` }),
        );
        return Buffer.from((await object.Body?.transformToByteArray()) ?? new Uint8Array());
      });
    if (size === 0) return { size, head: Buffer.alloc(0), tail: Buffer.alloc(0) };
    const head = await range(`0-${PARQUET_HEAD_BYTES - 1}`);
    const tail = await range(`${Math.max(0, size - PARQUET_TAIL_BYTES)}-${size - 1}`);
    return { size, head, tail };
  }

  /**
   * Proves the bucket can be listed and written under the prefix, before any data work: a list of
   * one key, then a small object put and deleted (named with "_", which dataset readers skip).
   */
  async preflight(probeName: string): Promise<void> {
    const prefix = this.location.prefix === "" ? undefined : `${this.location.prefix}/`;
    await this.send(`list the bucket ${this.url}`, () =>
      this.client.send(
        new this.sdk.ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: prefix, MaxKeys: 1 }),
      ),
    );
    const key = this.key(probeName);
    await this.send(`write to ${this.url}`, () =>
      // An empty body's length said outright: without it the SDK warns on stderr of a stream of unknown length.
      this.client.send(
        new this.sdk.PutObjectCommand({ Bucket: this.location.bucket, Key: key, Body: "", ContentLength: 0 }),
      ),
    );
    await this.delete(key);
  }

  /** An object's text, or undefined when there is none. */
  async readText(key: string): Promise<string | undefined> {
    try {
      const object = await this.client.send(
        new this.sdk.GetObjectCommand({ Bucket: this.location.bucket, Key: key }),
      );
      return (await object.Body?.transformToString("utf8")) ?? "";
    } catch (error) {
      if ((error as { name?: string }).name === "NoSuchKey") return undefined;
      throw this.failure(error, `read s3://${this.location.bucket}/${key}`);
    }
  }

  /**
   * Writes a small object. With `onlyIfAbsent`, S3's conditional write (If-None-Match: *) makes the
   * put fail when the key exists, and false is returned; a store without conditional writes takes
   * it as a plain put.
   */
  async writeText(key: string, text: string, options: { onlyIfAbsent?: boolean } = {}): Promise<boolean> {
    try {
      await this.client.send(
        new this.sdk.PutObjectCommand({
          Bucket: this.location.bucket,
          Key: key,
          Body: text,
          ContentType: "application/json",
          ...(options.onlyIfAbsent ? { IfNoneMatch: "*" } : {}),
        }),
      );
      return true;
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (options.onlyIfAbsent && (name === "PreconditionFailed" || name === "ConditionalRequestConflict"))
        return false;
      if (options.onlyIfAbsent && name === "NotImplemented") return this.writeText(key, text);
      throw this.failure(error, `write s3://${this.location.bucket}/${key}`);
    }
  }

  /**
   * Uploads a file as one object, replacing the one there whole: a single PUT, or a multipart
   * upload that S3 makes visible only when it is completed. Each PUT and part carries the SDK's
   * CRC32 (unless AWS_REQUEST_CHECKSUM_CALCULATION says when_required), which S3 checks against
   * the bytes it received. Then the stored size is read back (storedSize.ts), so a body cut short
   * on the way fails the upload and the partition stays marked. Returns the bytes sent.
   */
  async uploadFile(key: string, file: string): Promise<number> {
    const { size } = await stat(file);
    const url = `s3://${this.location.bucket}/${key}`;
    const head = () => new this.sdk.HeadObjectCommand({ Bucket: this.location.bucket, Key: key });
    const upload = new this.storage.Upload({
      client: this.client,
      params: {
        Bucket: this.location.bucket,
        Key: key,
        Body: createReadStream(file),
        ContentType: "application/vnd.apache.parquet",
      },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      // A failed multipart upload is aborted, so it leaves no parts to pay for.
      leavePartsOnError: false,
    });
    await this.send(`upload ${url}`, () => upload.done());
    const storedSize = async () => (await this.client.send(head())).ContentLength;
    await this.send(`check ${url}`, () =>
      expectStoredSize(url, size, { storedSize, stop: this.limits.stop }),
    );
    return size;
  }

  async delete(key: string): Promise<void> {
    await this.send(`delete s3://${this.location.bucket}/${key}`, () =>
      this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.location.bucket, Key: key })),
    );
  }

  close(): void {
    this.client.destroy();
  }

  private async send<T>(doing: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw this.failure(error, doing);
    }
  }

  /** A request the run's stop abandoned is the run's interruption, whatever the SDK made of it. */
  private failure(error: unknown, doing: string): Error {
    if (this.limits.stop.aborted) return interrupted(doing);
    return s3Failure(error, doing, { timeoutMs: this.limits.timeoutMs, secrets: this.secrets });
  }
}

/** What bounds the bucket's requests. */
export interface S3Limits {
  /** The run's stop (SIGINT/SIGTERM): every request in flight is abandoned, and none is sent after. */
  stop: AbortSignal;
  /** Each attempt's time limit (S3Settings.timeoutMs). */
  timeoutMs: number;
  /** Keys a listing page asks for: S3's maximum, 1000, unless a test pages sooner. */
  listPageSize?: number;
}

/**
 * The client for a location: the standard credential chain, the settings' endpoint and region,
 * path-style addressing with a custom endpoint unless told otherwise, and the export's retry
 * policy. Requests carry checksums as the settings say (the SDK's default: a CRC32 with every PUT
 * and part). With a custom endpoint, responses are checked only where S3 requires it: several
 * S3-compatible stores send no checksum, or a wrong one, with what they return.
 *
 * Every attempt is bounded by the settings' time limit (the HTTP handler's connect, request and
 * socket timeouts), and every request carries the run's stop as its abortSignal: lib-storage's
 * Upload sends its PUTs and parts through `client.send` without one, so the client's `send` adds it.
 * The SDK then abandons the request in flight, races its retry waits with the stop, and sends no
 * attempt after it.
 */
export async function openS3Bucket(
  location: S3Location,
  settings: S3Settings,
  retryPolicy: RetryPolicy,
  now: () => number,
  limits: Omit<S3Limits, "timeoutMs">,
): Promise<S3Bucket> {
  // Loaded only for an s3:// --out: the SDK is large, and a local export never needs it.
  const sdk: ClientModule = await import("@aws-sdk/client-s3");
  const storage: StorageModule = await import("@aws-sdk/lib-storage");
  const retry = new S3RetryStrategy(retryPolicy, now);
  const custom = settings.endpoint !== null;
  const client = new sdk.S3Client({
    ...(custom ? { endpoint: settings.endpoint as string } : {}),
    // A custom endpoint without a region gets us-east-1, which MinIO, R2 ("auto") and most others take.
    ...(settings.region !== null ? { region: settings.region } : custom ? { region: "us-east-1" } : {}),
    ...(settings.credentials !== null ? { credentials: settings.credentials } : {}),
    forcePathStyle: usesPathStyle(settings),
    followRegionRedirects: !custom,
    retryStrategy: retry,
    requestHandler: {
      connectionTimeout: settings.timeoutMs,
      // Connect to the answer's headers, the request's body included; without `throw` it only warns.
      requestTimeout: settings.timeoutMs,
      throwOnRequestTimeout: true,
      // Silence on the socket, also while the answer's body is read.
      socketTimeout: settings.timeoutMs,
    },
    ...(settings.requestChecksums !== null
      ? {
          requestChecksumCalculation:
            settings.requestChecksums === "when_required" ? "WHEN_REQUIRED" : "WHEN_SUPPORTED",
        }
      : {}),
    ...(custom ? { responseChecksumValidation: "WHEN_REQUIRED" } : {}),
  });
  const { accessKeyId, secretAccessKey, sessionToken } = settings.credentials ?? {};
  const secrets = [accessKeyId, secretAccessKey, sessionToken].filter((value) => value !== undefined);
  const send = client.send.bind(client) as (command: unknown, options?: object) => Promise<unknown>;
  (client as { send: typeof send }).send = (command, options) =>
    send(command, { ...options, abortSignal: limits.stop });
  return new S3Bucket(
    sdk,
    storage,
    client,
    location,
    retry,
    { ...limits, timeoutMs: settings.timeoutMs },
    secrets,
  );
}
