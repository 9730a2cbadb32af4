import path from "node:path";
import { describe, expect, test } from "vitest";
import { loadExportConfig } from "../../src/config/exportConfig.js";
import { usesPathStyle } from "../../src/destination/s3Settings.js";
import { ZooUsageError } from "../../src/errors.js";

function refusal(load: () => unknown): { code: string; message: string; hint: string } | undefined {
  try {
    load();
  } catch (error) {
    if (!(error instanceof ZooUsageError)) throw error;
    return { code: error.code, message: error.message, hint: error.hint ?? "" };
  }
  return undefined;
}

describe("--out and ZOO_USAGE_OUT", () => {
  test.each([
    ["./parquet", path.resolve("parquet")],
    ["/srv/zoo/parquet", "/srv/zoo/parquet"],
    ["file:///srv/zoo/parquet", "/srv/zoo/parquet"],
    ["s3://zoo-data/nightly/usage/", "s3://zoo-data/nightly/usage"],
    ["S3://zoo-data", "s3://zoo-data"],
    ["s3://zoo-data/", "s3://zoo-data"],
  ])("%s is %s", (out, expected) => {
    expect(loadExportConfig({ flags: { out }, env: {} }).outDir).toBe(expected);
    expect(loadExportConfig({ flags: {}, env: { ZOO_USAGE_OUT: out } }).outDir).toBe(expected);
  });

  test.each([
    ["gs://bucket/prefix", /no gs:\/\/ destination/],
    ["http://example.com/parquet", /no http:\/\/ destination/],
    ["az://container/prefix", /no az:\/\/ destination/],
    ["s3://Bad_Bucket/prefix", /is not a bucket name/],
    ["s3://zoo-data/a//b", /has an empty, "\." or "\.\." part/],
    ["s3://zoo-data/a?versionId=1", /no query or fragment/],
    ["file://remote-host/parquet", /is not a local file URL/],
  ])("%s is refused (exit 2), naming the flag or the variable and the forms taken", (out, why) => {
    for (const [flags, env, name] of [
      [{ out }, {}, "--out"],
      [{}, { ZOO_USAGE_OUT: out }, "ZOO_USAGE_OUT"],
    ] as const) {
      const error = refusal(() => loadExportConfig({ flags, env }));
      expect(error?.code).toBe("config.invalid");
      expect(error?.message.startsWith(`${name} "${out}"`), error?.message).toBe(true);
      expect(error?.message).toMatch(why);
      expect(error?.hint).toContain("s3://bucket/prefix");
    }
  });
});

describe("the S3 settings", () => {
  test("come from the standard variables: the service's endpoint first, AWS_REGION first", () => {
    const config = loadExportConfig({
      flags: {},
      env: {
        AWS_ENDPOINT_URL: "http://general.example:9000",
        AWS_ENDPOINT_URL_S3: "http://127.0.0.1:9000",
        AWS_DEFAULT_REGION: "eu-west-1",
        AWS_REGION: "eu-central-1",
        AWS_REQUEST_CHECKSUM_CALCULATION: "WHEN_REQUIRED",
      },
    });
    expect(config.s3).toEqual({
      addressing: "auto",
      endpoint: "http://127.0.0.1:9000",
      region: "eu-central-1",
      credentials: null,
      timeoutMs: 60_000,
      requestChecksums: "when_required",
    });
    expect(loadExportConfig({ flags: {}, env: { AWS_ENDPOINT_URL: "https://r2.example" } }).s3.endpoint).toBe(
      "https://r2.example",
    );
    expect(loadExportConfig({ flags: {}, env: {} }).s3).toEqual({
      addressing: "auto",
      endpoint: null,
      region: null,
      credentials: null,
      timeoutMs: 60_000,
      requestChecksums: null,
    });
    expect(() => loadExportConfig({ flags: {}, env: { AWS_REQUEST_CHECKSUM_CALCULATION: "never" } })).toThrow(
      "AWS_REQUEST_CHECKSUM_CALCULATION",
    );
  });

  test("the keys come from the environment the CLI is handed, and only as a pair", () => {
    const keys = { AWS_ACCESS_KEY_ID: "AKIAEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret/example" };
    expect(loadExportConfig({ flags: {}, env: keys }).s3.credentials).toEqual({
      accessKeyId: "AKIAEXAMPLE",
      secretAccessKey: "secret/example",
    });
    expect(
      loadExportConfig({ flags: {}, env: { ...keys, AWS_SESSION_TOKEN: "session" } }).s3.credentials,
    ).toMatchObject({ sessionToken: "session" });
    // One of the two alone: the SDK's chain decides (a profile, a role), as it would without either.
    expect(
      loadExportConfig({ flags: {}, env: { AWS_ACCESS_KEY_ID: "AKIAEXAMPLE" } }).s3.credentials,
    ).toBeNull();
  });

  test("an endpoint that is not an http(s) URL is refused naming its variable", () => {
    const error = refusal(() => loadExportConfig({ flags: {}, env: { AWS_ENDPOINT_URL_S3: "minio:9000" } }));
    expect(error?.code).toBe("config.invalid");
    expect(error?.message).toContain("AWS_ENDPOINT_URL_S3");
  });

  test.each([
    ["auto", null, false],
    ["auto", "http://127.0.0.1:9000", true],
    ["virtual", "https://minio.example", false],
    ["path", null, true],
  ] as const)("--s3-addressing %s with endpoint %s: path-style %s", (addressing, endpoint, pathStyle) => {
    expect(
      usesPathStyle({
        addressing,
        endpoint,
        region: null,
        credentials: null,
        timeoutMs: 1000,
        requestChecksums: null,
      }),
    ).toBe(pathStyle);
  });
});
