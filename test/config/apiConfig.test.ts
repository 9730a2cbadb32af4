import { describe, expect, test } from "vitest";
import { assertSecureTransport, isLoopback } from "../../src/api/secureTransport.js";
import { clientSettings, loadApiConfig } from "../../src/config/apiConfig.js";
import { DEFAULT_BASE_URL, redactUrlText } from "../../src/config/baseUrl.js";
import { printableConfig } from "../../src/config/printableConfig.js";
import { ZooUsageError } from "../../src/errors.js";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof ZooUsageError ? error.code : "not a ZooUsageError";
  }
  return undefined;
}

describe("loadApiConfig", () => {
  test("defaults to api.zoo.dev", () => {
    expect(loadApiConfig({ flags: {}, env: {} }).baseUrl.toString()).toBe(`${DEFAULT_BASE_URL}/`);
  });

  test("--base-url beats ZOO_HOST, which beats the default", () => {
    const env = { ZOO_HOST: "https://env.example.com" };
    expect(loadApiConfig({ flags: {}, env }).baseUrl.host).toBe("env.example.com");
    expect(loadApiConfig({ flags: { baseUrl: "https://flag.example.com" }, env }).baseUrl.host).toBe(
      "flag.example.com",
    );
  });

  test.each([
    [{ ZOO_API_TOKEN: "a", KITTYCAD_API_TOKEN: "b", KITTYCAD_TOKEN: "c" }, "a", "ZOO_API_TOKEN"],
    [{ KITTYCAD_API_TOKEN: "b", KITTYCAD_TOKEN: "c" }, "b", "KITTYCAD_API_TOKEN"],
    [{ KITTYCAD_TOKEN: "c" }, "c", "KITTYCAD_TOKEN"],
    [{ ZOO_API_TOKEN: "  ", KITTYCAD_TOKEN: "c" }, "c", "KITTYCAD_TOKEN"],
  ])("token from %j", (env, token, source) => {
    const config = loadApiConfig({ flags: {}, env });
    expect(config.token).toBe(token);
    expect(config.tokenSource).toBe(source);
  });

  test.each([
    [{ ZOO_API_TOKEN: " " }, "config.blank_token", /^ZOO_API_TOKEN is set but blank/],
    [{ ZOO_API_TOKEN: "" }, "config.blank_token", /^ZOO_API_TOKEN is set but blank/],
    [{ ZOO_API_TOKEN: "\t", KITTYCAD_TOKEN: " " }, "config.blank_token", /^ZOO_API_TOKEN is set but blank/],
    [{ KITTYCAD_TOKEN: "  " }, "config.blank_token", /^KITTYCAD_TOKEN is set but blank/],
    [{}, "config.missing_token", /^No API token: none of ZOO_API_TOKEN/],
  ])("no token from %j: blank is said apart from not set", (env, code, message) => {
    const config = loadApiConfig({ flags: {}, env });
    expect(config.token).toBeUndefined();
    expect(codeOf(() => clientSettings(config))).toBe(code);
    expect(() => clientSettings(config)).toThrow(message);
  });

  test("a missing token is a config error naming the variables", () => {
    const config = loadApiConfig({ flags: {}, env: {} });
    expect(codeOf(() => clientSettings(config))).toBe("config.missing_token");
    expect(() => clientSettings(config)).toThrow(/ZOO_API_TOKEN, KITTYCAD_API_TOKEN, KITTYCAD_TOKEN/);
  });

  test.each([
    ["not a url", /not a valid URL/],
    ["ftp://api.zoo.dev", /http or https/],
    ["https://user:pw@api.zoo.dev", /credentials/],
    ["https://api.zoo.dev/?x=1", /query/],
  ])("rejects base URL %j", (baseUrl, message) => {
    expect(codeOf(() => loadApiConfig({ flags: { baseUrl }, env: {} }))).toBe("config.invalid");
    expect(() => loadApiConfig({ flags: { baseUrl }, env: {} })).toThrow(message);
  });

  test.each([
    ["a line break", "abc\ndef-secret", /a control character/],
    ["a tab", "abc\tdef-secret", /a control character/],
    ["a space inside", "abc def-secret", /a space/],
    ["a non-latin1 character", "abc€def-secret", /a non-ASCII character/],
    ["a latin1 accent", "abcédef-secret", /a non-ASCII character/],
  ])("a token with %s is a config error naming the variable, not the value", (_, token, kind) => {
    const load = () => loadApiConfig({ flags: {}, env: { KITTYCAD_TOKEN: token } });
    expect(codeOf(load)).toBe("config.invalid");
    expect(load).toThrow(kind);
    expect(load).toThrow(/KITTYCAD_TOKEN holds .* at position 4, which an HTTP header cannot carry/);
    try {
      load();
    } catch (error) {
      const { message, hint } = error as ZooUsageError;
      expect(`${message} ${hint}`).not.toContain("secret");
    }
  });

  test.each([
    ["https://admin:pw-secret@bad host", "https://[redacted]@bad host"],
    ["http://a:b/c@d:e@h st", "http://[redacted]@h st"],
    ["admin:pw-secret@host name", "[redacted]@host name"],
    ["https://bad host/?key=pw-secret", "https://bad host/?[redacted]"],
    ["https://bad host/#pw-secret", "https://bad host/?[redacted]"],
    ["not a url", "not a url"],
  ])("an unparsable base URL %j is shown as %j", (raw, shown) => {
    expect(redactUrlText(raw)).toBe(shown);
    if (raw !== shown) expect(() => loadApiConfig({ flags: {}, env: { ZOO_HOST: raw } })).toThrow(/ZOO_HOST/);
  });

  test("a base URL's path prefix is kept", () => {
    expect(
      loadApiConfig({ flags: { baseUrl: "https://proxy.example/zoo/" }, env: {} }).baseUrl.pathname,
    ).toBe("/zoo/");
  });

  test("--max-response-mb sets the body cap (256 MiB by default)", () => {
    expect(loadApiConfig({ flags: {}, env: {} }).maxResponseBytes).toBe(256 * 1024 * 1024);
    expect(loadApiConfig({ flags: { maxResponseMb: 1.5 }, env: {} }).maxResponseBytes).toBe(1_572_864);
    expect(codeOf(() => loadApiConfig({ flags: { maxResponseMb: 0 }, env: {} }))).toBe("config.invalid");
  });

  test("retry flags override the defaults", () => {
    const config = loadApiConfig({ flags: { maxAttempts: 3, maxRetryWait: 1.5 }, env: {} });
    expect(config.retry.maxAttempts).toBe(3);
    expect(config.retry.maxTotalWaitMs).toBe(1500);
  });

  test("the printable config never shows the token, nor a part of it", () => {
    const token = "Qx7k-secret-token-1234567890";
    const api = loadApiConfig({ flags: {}, env: { ZOO_API_TOKEN: token } });
    const shown = JSON.stringify(printableConfig({ api }));
    expect(shown).not.toContain(token.slice(0, 4));
    expect(shown).toContain('"token":"[redacted]"');
  });
});

describe("plain http", () => {
  test.each(["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "api.localhost"])("%s is loopback", (host) => {
    expect(isLoopback(host)).toBe(true);
  });

  test.each(["api.zoo.dev", "10.0.0.1", "192.168.1.2", "128.0.0.1", "[::2]", "localhost.evil.com"])(
    "%s is not loopback",
    (host) => {
      expect(isLoopback(host)).toBe(false);
    },
  );

  test("a token is never sent over http to a remote host", () => {
    expect(codeOf(() => assertSecureTransport(new URL("http://api.zoo.dev")))).toBe(
      "config.insecure_transport",
    );
    expect(codeOf(() => assertSecureTransport(new URL("http://127.0.0.1:8080")))).toBeUndefined();
    expect(codeOf(() => assertSecureTransport(new URL("https://api.zoo.dev")))).toBeUndefined();
  });
});
