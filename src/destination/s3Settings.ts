/**
 * How the S3 client is made, from the config: the endpoint (AWS_ENDPOINT_URL_S3 or
 * AWS_ENDPOINT_URL; null for AWS itself), the region (AWS_REGION or AWS_DEFAULT_REGION; null lets
 * the SDK read the profile's), the addressing style, and the keys when the run's environment
 * holds them (else the SDK's standard chain finds them: AWS_PROFILE's files, SSO, container and
 * instance roles).
 */
export interface S3Settings {
  endpoint: string | null;
  region: string | null;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string | undefined } | null;
  /** auto: path-style with a custom endpoint (MinIO, s3rver need it), virtual-hosted with AWS. */
  addressing: S3Addressing;
  /**
   * The time limit of one attempt of a store request (--store-timeout): to connect, to send the
   * request and get the answer's headers, and of silence while either side sends a body.
   */
  timeoutMs: number;
  /**
   * When a PUT and a multipart part carry a checksum the store verifies (AWS_REQUEST_CHECKSUM_CALCULATION):
   * when_supported sends the SDK's CRC32 with every one; when_required only where S3 demands it, the
   * way out for a store that refuses the checksum headers. Null: the SDK's own (the profile's
   * request_checksum_calculation, else when_supported).
   */
  requestChecksums: S3ChecksumCalculation | null;
}

/** The store's default time limit per attempt: the API's own (--request-timeout). */
export const DEFAULT_STORE_TIMEOUT_SECONDS = 60;

export const S3_CHECKSUM_CALCULATIONS = ["when_supported", "when_required"] as const;
export type S3ChecksumCalculation = (typeof S3_CHECKSUM_CALCULATIONS)[number];

export const S3_ADDRESSINGS = ["auto", "path", "virtual"] as const;
export type S3Addressing = (typeof S3_ADDRESSINGS)[number];

export function usesPathStyle(settings: S3Settings): boolean {
  if (settings.addressing === "auto") return settings.endpoint !== null;
  return settings.addressing === "path";
}
