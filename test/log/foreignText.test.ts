import { expect, test } from "vitest";
import { foreignText } from "../../src/log/printable.js";

test("a text with nothing to escape or redact is returned unchanged", () => {
  const plain = "NoSuchKey: The specified key does not exist. (HTTP 404) — café, 日本, 🙂";
  expect(foreignText(plain)).toBe(plain);
  expect(foreignText(plain, ["AKIAEXAMPLEKEY"])).toBe(plain);
});

test.each([
  ["a line break, which would forge a log line", "ok\nerror: forged", "ok\\nerror: forged"],
  ["a carriage return", "ok\rforged", "ok\\rforged"],
  ["a tab", "a\tb", "a\\tb"],
  ["ESC (a terminal escape sequence)", "\u001b[31mred", "\\x1b[31mred"],
  ["BEL and NUL", "\u0007\u0000", "\\x07\\x00"],
  ["DEL", "a\u007fb", "a\\x7fb"],
  ["a C1 control (CSI)", "a\u009b31m", "a\\x9b31m"],
  ["the Unicode line and paragraph separators", "a\u2028b\u2029c", "a\\u2028b\\u2029c"],
  ["a bidirectional override", "abc\u202edcba", "abc\\u202edcba"],
])("%s is shown as a visible escape", (_what, text, shown) => {
  expect(foreignText(text)).toBe(shown);
});

test.each([
  [
    "a presigned URL's session token, key id and signature",
    "GET /b/k?X-Amz-Credential=ASIAXXX%2F20261001%2Fus-east-1%2Fs3%2Faws4_request&x-amz-security-token=FwoGZXIvYXdzEJr%2Fabc&X-Amz-Signature=0f1e2d3c",
    "GET /b/k?X-Amz-Credential=[redacted]&x-amz-security-token=[redacted]&X-Amz-Signature=[redacted]",
  ],
  [
    "a session token header",
    "X-Amz-Security-Token: FwoGZXIvYXdzEJr/abc+def= was rejected",
    "X-Amz-Security-Token: [redacted] was rejected",
  ],
  ["a header as JSON", '{"x-amz-security-token":"FwoGZXIv"}', '{"x-amz-security-token":"[redacted]"}'],
  [
    "an Authorization header, to the end of its line",
    "Authorization: AWS4-HMAC-SHA256 Credential=AKIA/x, Signature=abc\nnext",
    "Authorization: [redacted]\\nnext",
  ],
])("%s is redacted", (_what, text, shown) => {
  expect(foreignText(text)).toBe(shown);
});

test("the run's own secrets are redacted verbatim and URL-encoded, wherever they are", () => {
  const secretKey = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
  const sessionToken = "IQoJb3JpZ2luX2VjE/canary+token==";
  const text = `key ${secretKey} token=${encodeURIComponent(sessionToken)} id AKIAIOSFODNN7EXAMPLE`;
  const shown = foreignText(text, [secretKey, sessionToken, "AKIAIOSFODNN7EXAMPLE", ""]);
  expect(shown).toBe("key [redacted] token=[redacted] id [redacted]");
});
