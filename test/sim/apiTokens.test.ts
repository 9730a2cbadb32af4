import { expect, test } from "vitest";
import { startSimulator } from "../../src/sim/index.js";
import { createUsers } from "../../src/sim/users.js";

test("--api-tokens gives the first user that many distinct tokens, none another user's, and its calls use them", () => {
  const users = createUsers(7, 40, { firstUserApiTokens: 5000 });
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

test("a large account's API tokens page by (created_at, id) in both orders, each token once", async () => {
  const sim = await startSimulator({ users: 1, calls: 10, firstUserApiTokens: 2500 });
  try {
    const token = sim.users[0]?.token ?? "";
    const listAll = async (order: string) => {
      const items: { id: string; created_at: string }[] = [];
      let pageToken: string | null = null;
      do {
        const query = new URLSearchParams({ limit: "1000", sort_by: order });
        if (pageToken !== null) query.set("page_token", pageToken);
        const response = await fetch(`${sim.url}/user/api-tokens?${query}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const page = (await response.json()) as { items: typeof items; next_page: string | null };
        items.push(...page.items);
        pageToken = page.next_page;
      } while (pageToken !== null);
      return items;
    };
    const ascending = await listAll("created_at_ascending");
    expect(new Set(ascending.map((item) => item.id)).size).toBe(2500);
    const byKey = (a: (typeof ascending)[0], b: (typeof ascending)[0]) =>
      Date.parse(a.created_at) - Date.parse(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    expect(ascending).toEqual([...ascending].sort(byKey));
    expect(await listAll("created_at_descending")).toEqual([...ascending].reverse());
  } finally {
    await sim.close();
  }
});
