import { ExitCode, ZooUsageError } from "../errors.js";
import { foreignText } from "../log/printable.js";

/** What an SDK error carries that a message may quote: never its request, headers or body. */
interface SdkFailure {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number; requestId?: string };
}

/** Error names (S3's error codes) that mean the credentials, not the request, are wrong. */
const CREDENTIALS = new Set([
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "InvalidToken",
  "ExpiredToken",
  "TokenRefreshRequired",
  "CredentialsProviderError",
  "InvalidClientTokenId",
]);

const NETWORK = /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH)$/;

/**
 * Whether an attempt ended on the store's time limit (--store-timeout): the SDK's HTTP handler names
 * its own timeouts (to connect, to the answer's headers, of a silent socket) TimeoutError, and gives
 * the same name to a reset or broken pipe (ECONNRESET, EPIPE), which are not timeouts.
 */
export function isStoreTimeout(error: unknown): boolean {
  const failure = (error ?? {}) as SdkFailure;
  return failure.name === "TimeoutError" && (failure.code === undefined || failure.code === "ETIMEDOUT");
}

const CREDENTIALS_HINT =
  "Check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary credentials), or AWS_PROFILE; with another store than AWS, AWS_ENDPOINT_URL_S3 must name it. Partitions not uploaded stay marked for the next run.";

/**
 * An S3 request's failure as the one error type: what was asked (`doing`, with the s3:// location,
 * never a credential), the store's error code, HTTP status and request id, and what to do.
 * Credentials, a missing bucket and refused access are the user's to fix (exit 2); a store that is
 * unreachable or failing after the retries is exit 3, like the API's. The store's words (its error
 * code, message and request id) are quoted through foreignText: a store, or a proxy before it, may
 * echo a request's session token or signature, or hold a line break that would forge a log line;
 * `secrets` are the run's own keys, redacted wherever they appear. The SDK error is not kept as the
 * cause, whose stack would add only the SDK's internals to `--debug`.
 */
export function s3Failure(
  error: unknown,
  doing: string,
  context: { timeoutMs?: number | undefined; secrets?: readonly string[] } = {},
): ZooUsageError {
  const { timeoutMs, secrets = [] } = context;
  if (error instanceof ZooUsageError) return error;
  if (timeoutMs !== undefined && isStoreTimeout(error))
    return new ZooUsageError({
      code: "output.s3_unreachable",
      message: `Cannot ${doing}: the store did not answer within ${timeoutMs / 1000} s (--store-timeout)`,
      hint: "The store or the network is stuck or slow; raise --store-timeout (ZOO_USAGE_STORE_TIMEOUT) if its answers take this long. The database is intact and the next run uploads the partitions not yet confirmed.",
      exitCode: ExitCode.api,
    });
  const failure = (error ?? {}) as SdkFailure;
  const name = foreignText(failure.name ?? failure.code ?? "Error", secrets);
  const status = failure.$metadata?.httpStatusCode;
  const rawRequestId = failure.$metadata?.requestId;
  const requestId = rawRequestId === undefined ? undefined : foreignText(rawRequestId, secrets);
  const where = [status === undefined ? undefined : `HTTP ${status}`, requestId && `request id ${requestId}`]
    .filter(Boolean)
    .join(", ");
  const said = `${name}${failure.message && failure.message !== name ? `: ${oneLine(failure.message, secrets)}` : ""}`;
  const message = `Cannot ${doing}: ${said}${where === "" ? "" : ` (${where})`}`;
  const made = (
    code: "credentials" | "bucket" | "denied" | "region" | "unreachable" | "failed",
    hint: string,
  ) =>
    new ZooUsageError({
      code: `output.s3_${code}`,
      message,
      hint,
      exitCode: code === "unreachable" || code === "failed" ? ExitCode.api : ExitCode.usage,
      status,
      requestId,
    });
  if (CREDENTIALS.has(name) || /credential/i.test(name)) return made("credentials", CREDENTIALS_HINT);
  if (name === "NoSuchBucket" || (name === "NotFound" && /bucket/i.test(doing)))
    return made(
      "bucket",
      "Create the bucket, or correct its name in --out (s3://bucket/prefix) and the endpoint (AWS_ENDPOINT_URL_S3). Partitions not uploaded stay marked for the next run.",
    );
  if (name === "AccessDenied" || name === "AllAccessDisabled" || status === 403)
    return made(
      "denied",
      "The credentials may not do this: grant s3:ListBucket on the bucket and s3:GetObject, s3:PutObject and s3:DeleteObject under the prefix (docs/object-storage.md has the policy).",
    );
  if (name === "PermanentRedirect" || name === "AuthorizationHeaderMalformed" || /region/i.test(said))
    return made(
      "region",
      "Set AWS_REGION to the bucket's region (or the region your store expects, us-east-1 for most S3-compatible stores).",
    );
  if (
    status === undefined &&
    (NETWORK.test(name) || NETWORK.test(failure.code ?? "") || name === "TimeoutError")
  )
    return made(
      "unreachable",
      "Check the network and the endpoint (AWS_ENDPOINT_URL_S3). Partitions not uploaded stay marked for the next run.",
    );
  return made(
    "failed",
    "The store failed after the retries; the database is intact and the next run uploads the partitions not yet confirmed.",
  );
}

/** An S3 message on one line (XML error messages may wrap), redacted before it is cut short. */
function oneLine(text: string, secrets: readonly string[]): string {
  return foreignText(text.replace(/\s+/g, " ").trim(), secrets).slice(0, 300);
}

/**
 * An upload the store acknowledged but holds short: the HeadObject after it reports fewer (or
 * more, or no) bytes than were sent. Exit 3, like a store failing: nothing is wrong with the
 * user's settings, the partition stays marked, and the next run uploads it again.
 */
export function shortUpload(url: string, sent: number, stored: number | undefined): ZooUsageError {
  const holds = stored === undefined ? "no size" : `${stored} bytes`;
  return new ZooUsageError({
    code: "output.s3_incomplete",
    message: `The store acknowledged the upload of ${url} but holds ${holds} of the ${sent} sent`,
    hint: "The partition stays marked and the next run uploads it again. If it repeats, look at what sits between this host and the store (a proxy, a gateway) or the store's own health.",
    exitCode: ExitCode.api,
  });
}
