import path from "node:path";
import { fileURLToPath } from "node:url";
import { ZooUsageError } from "../errors.js";
import { parseS3Url, s3Url } from "../objectStore/s3Location.js";
import type { FlagSetting } from "./flagDefinition.js";

/** A value that starts like a URL ("scheme://"): a Windows path (C:\) does not. */
const URL_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;

const SUPPORTED =
  "a local directory, file:///absolute/path, or s3://bucket/prefix (AWS S3 or any S3-compatible store)";

/**
 * --out (or ZOO_USAGE_OUT) as the config holds it: an absolute local directory, or a normalised
 * `s3://bucket/prefix`. A file:// URL is its local path. Any other scheme is refused rather than
 * taken as a directory named after it (`gs:`): there is no destination for it.
 */
export function outLocation(setting: FlagSetting): string {
  const value = String(setting.value);
  // Left empty for the schema to refuse: path.resolve("") would be the working directory.
  if (value === "") return value;
  const scheme = URL_SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return path.resolve(value);
  if (scheme === "s3") {
    const location = parseS3Url(value);
    if ("error" in location) throw refused(setting, `${JSON.stringify(value)}: ${location.error}`);
    return s3Url(location);
  }
  if (scheme === "file") {
    try {
      return fileURLToPath(value);
    } catch (cause) {
      throw refused(setting, `${JSON.stringify(value)} is not a local file URL: ${(cause as Error).message}`);
    }
  }
  throw refused(setting, `${JSON.stringify(value)}: zoo-usage writes no ${scheme}:// destination`);
}

function refused(setting: FlagSetting, what: string): ZooUsageError {
  return new ZooUsageError({
    code: "config.invalid",
    message: `${setting.name} ${what}`,
    hint: `Give ${SUPPORTED}. For Google Cloud Storage, use s3:// with its interoperability endpoint (docs/object-storage.md).`,
  });
}
