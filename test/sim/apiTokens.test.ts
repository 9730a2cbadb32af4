import { expect, test } from "vitest";
import { createUsers } from "../../src/sim/users.js";

test("--api-tokens gives the first user that many distinct tokens, none another user's, and its calls use them", () => {
  const users = createUsers(7, 40, undefined, 5000);
  const [first, ...others] = users;
  expect(first?.apiTokens).toHaveLength(5000);
  expect(new Set(first?.apiTokens).size).toBe(5000);
  const othersTokens = new Set(others.flatMap((user) => user.apiTokens));
  expect(first?.apiTokens.filter((token) => othersTokens.has(token))).toEqual([]);
  expect(first?.callTokens).toEqual(first?.apiTokens);
  // Without the option, the first user keeps its 1 to 3 tokens, as before.
  const plain = createUsers(7, 40)[0]?.apiTokens ?? [];
  expect(plain.length).toBeGreaterThanOrEqual(1);
  expect(plain.length).toBeLessThanOrEqual(3);
  expect(first?.apiTokens.slice(0, plain.length)).toEqual(plain);
});
