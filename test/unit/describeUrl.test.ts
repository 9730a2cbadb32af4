import { expect, test } from "vitest";
import { describeUrl } from "../../src/api/redact.js";

/** A URL in a message: the page token replaced by a mark that reads as written, the rest kept. */
test.each([
  [
    "https://api.zoo.dev/user/api-calls?limit=100&page_token=eyJ2IjoxLCJvZmZzZXQiOjEwMH0&sort_by=created_at_ascending",
    "/user/api-calls?limit=100&page_token=[redacted]&sort_by=created_at_ascending",
  ],
  ["https://api.zoo.dev/user/api-calls?page_token=short", "/user/api-calls?page_token=[redacted]"],
  ["https://api.zoo.dev/user/api-calls?limit=5", "/user/api-calls?limit=5"],
  ["https://api.zoo.dev/org", "/org"],
])("%s is shown as %s", (url, shown) => {
  const described = describeUrl(new URL(url));
  expect(described).toBe(shown);
  expect(described).not.toMatch(/%5B|%E2/);
});
