import path from "node:path";
import { fileURLToPath } from "node:url";
import { isS3Url, parseS3Url, s3Url } from "./s3Location.js";

/** A value that starts like a URL ("scheme://"): a Windows path (C:\) does not. */
const URL_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

/** The forms --out takes, for messages. */
export const OUT_FORMS =
  "a local directory, file:///absolute/path, or s3://bucket/prefix (AWS S3 or any S3-compatible store)";

/**
 * --out as a run keeps it: an absolute local directory, or a normalised `s3://bucket/prefix`. A
 * file:// URL is its local path. Any other scheme is refused rather than taken as a directory named
 * after it (`gs:`): there is no destination for it. Returns what is wrong otherwise.
 */
export function parseOut(value: string): { out: string } | { error: string } {
  const scheme = URL_SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return { out: path.resolve(value) };
  if (scheme === "s3") {
    const location = parseS3Url(value);
    return "error" in location ? { error: location.error } : { out: s3Url(location) };
  }
  if (scheme === "file") {
    try {
      return { out: fileURLToPath(value) };
    } catch (cause) {
      return { error: `it is not a local file URL: ${(cause as Error).message}` };
    }
  }
  return { error: `zoo-usage writes no ${scheme}:// destination` };
}

/** A dataset under a parsed --out: a directory, or a key prefix of s3://bucket/prefix. */
export function datasetLocation(out: string, dataset: string): string {
  return isS3Url(out) ? `${out}/${dataset}` : path.join(out, dataset);
}
