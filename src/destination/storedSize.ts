import { setTimeout as wait } from "node:timers/promises";
import { shortUpload } from "./s3Failure.js";

/** The waits before a stored size that differs from the one sent is asked again. */
const RECHECK_WAITS_MS = [100, 400, 1_500];

/**
 * The object's size as the store reports it is the size sent, else the upload was cut short
 * (output.s3_incomplete). A store may answer from before its own acknowledged write (S3-compatible
 * stores that are not read-after-write consistent, s3rver among them): a differing size is asked
 * again after a wait, a few times, before it counts. A truncated object stays short however long
 * one waits. The run's stop ends the waits.
 */
export async function expectStoredSize(
  url: string,
  sent: number,
  store: { storedSize: () => Promise<number | undefined>; stop: AbortSignal },
): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    const stored = await store.storedSize();
    if (stored === sent) return;
    const delay = RECHECK_WAITS_MS[attempt];
    if (delay === undefined) throw shortUpload(url, sent, stored);
    await wait(delay, undefined, { signal: store.stop });
  }
}
