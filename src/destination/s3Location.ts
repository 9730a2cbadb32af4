/**
 * Where an S3 dataset lives: a bucket and a key prefix, parsed from `s3://bucket/prefix`. The
 * prefix has no leading or trailing slash and may be empty (the dataset at the bucket's root).
 */
export interface S3Location {
  bucket: string;
  prefix: string;
}

/**
 * Bucket names as every S3-compatible store takes them in a path-style URL: 3-63 lowercase letters,
 * digits, dots and hyphens, starting and ending with a letter or digit (AWS's bucket naming rules;
 * R2, MinIO, B2 and GCS's interoperability mode use the same). Checked here so that a typo fails on
 * the command line, not as a signature error from the store.
 */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** `s3://bucket/prefix` to a location; a message saying what is wrong otherwise. */
export function parseS3Url(url: string): S3Location | { error: string } {
  const match = /^s3:\/\/([^/?#]*)\/*([^?#]*)$/i.exec(url);
  if (match === null) return { error: "an s3:// URL has no query or fragment: s3://bucket/prefix" };
  const bucket = match[1] as string;
  if (!BUCKET.test(bucket)) {
    return {
      error: `"${bucket}" is not a bucket name (3-63 lowercase letters, digits, dots and hyphens)`,
    };
  }
  const prefix = (match[2] as string).replace(/\/+$/, "");
  if (prefix !== "" && prefix.split("/").some((part) => part === "" || part === "." || part === "..")) {
    return { error: `the prefix "${prefix}" has an empty, "." or ".." part` };
  }
  return { bucket, prefix };
}

/** The location as the URL the user writes: `s3://bucket/prefix`, without a trailing slash. */
export function s3Url(location: S3Location): string {
  return location.prefix === "" ? `s3://${location.bucket}` : `s3://${location.bucket}/${location.prefix}`;
}

/** The key of a path under the location's prefix. */
export function s3Key(location: S3Location, ...parts: readonly string[]): string {
  return [location.prefix, ...parts].filter((part) => part !== "").join("/");
}

/** True for an --out that names an S3 location rather than a local directory. */
export function isS3Url(out: string): boolean {
  return /^s3:\/\//i.test(out);
}
