import { OWNER_FILE, type OwnerMarker, parseOwner } from "./datasetOwner.js";
import type { S3Bucket } from "./s3Bucket.js";

/**
 * The owner marker of a bucket prefix: the object `<prefix>/_zoo_usage_owner.json`, with the local
 * owner file's content and meaning. It is created with a conditional put (If-None-Match: *), so of
 * two claims at once on a store that honours it, one wins; a store that takes it as a plain put
 * lets the later claim overwrite the earlier, which claimDataset's read-back and the checks before
 * each write catch.
 */
export function s3OwnerMarker(bucket: S3Bucket): OwnerMarker {
  const key = bucket.key(OWNER_FILE);
  const location = `${bucket.url}/${OWNER_FILE}`;
  return {
    dataset: bucket.url,
    location,
    async read() {
      const text = await bucket.readText(key);
      return text === undefined ? undefined : parseOwner(text, location);
    },
    create: (text) => bucket.writeText(key, text, { onlyIfAbsent: true }),
    replace: async (text) => {
      await bucket.writeText(key, text);
    },
    remove: () => bucket.delete(key),
  };
}
