import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { S3Client } from "@aws-sdk/client-s3";
import type { RetryPolicy } from "../api/retryPolicy.js";
import { s3Failure } from "./s3Failure.js";
import { type S3Location, s3Key, s3Url } from "./s3Location.js";
import { S3RetryStrategy } from "./s3Retry.js";
import { type S3Settings, usesPathStyle } from "./s3Settings.js";

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
    /** The run's own key id, secret key and session token: redacted from the store's messages. */
    private readonly secrets: readonly string[],
    /** Keys a listing page asks for: S3's maximum, 1000, unless a test pages sooner. */
    private readonly listPageSize = 1000,
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

  /** Every key under a path of the prefix (ListObjectsV2, page after page). */
  async keysUnder(...parts: readonly string[]): Promise<string[]> {
    const prefix = `${this.key(...parts)}/`;
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.send(`list ${this.url}`, () =>
        this.client.send(
          new this.sdk.ListObjectsV2Command({
            Bucket: this.location.bucket,
            Prefix: prefix === "/" ? undefined : prefix,
            ContinuationToken: token,
            MaxKeys: this.listPageSize,
          }),
        ),
      );
      for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
    return keys;
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
      this.client.send(new this.sdk.PutObjectCommand({ Bucket: this.location.bucket, Key: key, Body: "" })),
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
      throw s3Failure(error, `read s3://${this.location.bucket}/${key}`, this.secrets);
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
      throw s3Failure(error, `write s3://${this.location.bucket}/${key}`, this.secrets);
    }
  }

  /**
   * Uploads a file as one object, replacing the one there whole: a single PUT, or a multipart
   * upload that S3 makes visible only when it is completed. Returns the bytes sent.
   */
  async uploadFile(key: string, file: string): Promise<number> {
    const { size } = await stat(file);
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
    await this.send(`upload s3://${this.location.bucket}/${key}`, () => upload.done());
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
      throw s3Failure(error, doing, this.secrets);
    }
  }
}

/**
 * The client for a location: the standard credential chain, the settings' endpoint and region,
 * path-style addressing with a custom endpoint unless told otherwise, and the export's retry
 * policy. With a custom endpoint, checksums are sent only where S3 requires them: the SDK's
 * default CRC32 headers are refused or mishandled by several S3-compatible stores.
 */
export async function openS3Bucket(
  location: S3Location,
  settings: S3Settings,
  retryPolicy: RetryPolicy,
  now: () => number,
  listPageSize?: number,
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
    ...(custom
      ? { requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" }
      : {}),
  });
  const { accessKeyId, secretAccessKey, sessionToken } = settings.credentials ?? {};
  const secrets = [accessKeyId, secretAccessKey, sessionToken].filter((value) => value !== undefined);
  return new S3Bucket(sdk, storage, client, location, retry, secrets, listPageSize);
}
