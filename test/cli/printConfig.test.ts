import path from "node:path";
import { describe, expect, test } from "vitest";
import { runCli } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

/** Recognisable secrets: neither they nor their first characters may be printed. */
const TOKEN = "Qz9w-print-config-canary-token";
const SECRET_KEY = "7f3a".repeat(16);
const S3_SECRET = "Wk8r-print-config-canary-s3-secret";
const env = {
  ZOO_API_TOKEN: TOKEN,
  ZOO_USAGE_SECRET_KEY: SECRET_KEY,
  AWS_ACCESS_KEY_ID: "AKIAPRINTCONFIGCANARY",
  AWS_SECRET_ACCESS_KEY: S3_SECRET,
};

describe("--print-config: one shape, the secrets redacted, in every command that has it", () => {
  test.each([
    ["export", ["export", "--print-config"], ["api", "export"]],
    ["operation get", ["operation", "get", "some-id", "--print-config"], ["api", "operation"]],
    [
      "operation get --from-db",
      ["operation", "get", "some-id", "--from-db", "--print-config"],
      ["warehouse", "operation"],
    ],
  ])("%s", async (_, args, sections) => {
    const result = await runCli(args, { env });
    expect(result.code, result.stderr).toBe(0);
    const printed = `${result.stdout}${result.stderr}`;
    for (const secret of [TOKEN, SECRET_KEY, S3_SECRET, env.AWS_ACCESS_KEY_ID])
      expect(printed).not.toContain(secret.slice(0, 4));
    const config = JSON.parse(result.stdout) as Record<string, Record<string, unknown>>;
    expect(Object.keys(config)).toEqual(sections);
    if (config.api !== undefined) {
      expect(config.api).toMatchObject({ token: "[redacted]", token_source: "ZOO_API_TOKEN" });
    }
    if (config.export !== undefined) {
      expect(config.export.secret_key).toBe("[redacted]");
      expect(config.export.s3).toMatchObject({ credentials: "[redacted]" });
    }
  });
});

describe("the environment rule through the CLI", () => {
  test("empty variables count as unset: the defaults, for export and report alike", async () => {
    const { dir, cleanup } = await tempWorkspace();
    try {
      const blank = { ...env, ZOO_USAGE_DB: "", ZOO_USAGE_OUT: "", ZOO_HOST: "", ZOO_USAGE_SECRET_KEY: " " };
      const exported = await runCli(["export", "--print-config"], {
        env: blank,
        cwd: dir,
      });
      expect(exported.code, exported.stderr).toBe(0);
      const config = JSON.parse(exported.stdout) as {
        api: { base_url: string };
        export: { db_path: string; out_dir: string; secret_key: unknown };
      };
      expect(config.api.base_url).toBe("https://api.zoo.dev/");
      expect(config.export).toMatchObject({
        db_path: path.join(dir, "zoo-usage", "zoo_usage.duckdb"),
        out_dir: path.join(dir, "zoo-usage", "parquet"),
        secret_key: null,
      });
      const report = await runCli(["report"], { env: blank, cwd: dir });
      expect(report.code).toBe(2);
      expect(report.stderr).toContain(
        `No zoo-usage database at ${path.join(dir, "zoo-usage", "zoo_usage.duckdb")}`,
      );
    } finally {
      await cleanup();
    }
  });

  test("a bad variable is named as the user wrote it", async () => {
    const result = await runCli(["export", "--print-config"], {
      env: { ...env, ZOO_USAGE_DB: ":memory:" },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: ZOO_USAGE_DB ":memory:" is a DuckDB special name/);
    expect(result.stdout).toBe("");
  });
});
