import { describe, expect, test } from "vitest";
import { peekNextPage, peekNextPageAtHead, peekNextPageAtTail } from "../../src/api/itemsJson.js";

describe("peekNextPageAtHead: the next token read from a page's first bytes, before the rest is in", () => {
  const peek = (text: string) => peekNextPageAtHead(Buffer.from(text));
  const page = '{"next_page":"tok/+==","items":[{"id":"a"},{"id":"b"}]}';

  test("the token of a token-first page with items, as soon as the first item starts", () => {
    expect(peek(page)).toEqual({ token: "tok/+==" });
    expect(peek('{"next_page":"tok/+==","items":[{')).toEqual({ token: "tok/+==" });
    expect(peek('{"next_page":"é \\u0041 \\"q\\"","items":[{')).toEqual({ token: 'é A "q"' });
    expect(JSON.parse(page).next_page).toBe("tok/+==");
  });

  test("more while every byte so far could still be such a head", () => {
    for (let cut = 0; cut < '{"next_page":"tok/+==","items":[{'.length; cut++) {
      expect(peek(page.slice(0, cut)), page.slice(0, cut)).toBe("more");
    }
    expect(peek('{"next_page":"a\\')).toBe("more");
  });

  test.each(["eyJ2IjoidjEifQ==", 'q"uote\\back/slash', "é 🦖 \u2028", ""])(
    "every prefix of a page with token %j is 'more' or that token, never another",
    (token) => {
      const body = `{"next_page":${JSON.stringify(token)},"items":[{"id":"a","next_page":"x"}]}`;
      let found = -1;
      const bytes = Buffer.from(body);
      for (let cut = 0; cut <= bytes.length; cut++) {
        const result = peekNextPageAtHead(bytes.subarray(0, cut));
        if (result === "more") {
          expect(found, `"more" after the token was found, at ${cut}`).toBe(-1);
          continue;
        }
        expect(result, `at ${cut}`).toEqual({ token: JSON.parse(body).next_page });
        if (found === -1) found = cut;
      }
      // Found as soon as the first item starts, not later.
      expect(found).toBe(bytes.indexOf(',"items":[{') + ',"items":[{'.length);
    },
  );

  test("none for a last page, an empty page or another shape, without waiting for more", () => {
    for (const text of [
      '{"next_page":null,"items":[{"id":"a"}]}',
      '{"next_page":"t","items":[]}',
      '{"next_page":7,',
      '{"next_page":"t", "items":[{',
      '{"next_page":"t","extra":1,',
      '{ "next_page":"t","items":[{',
      '{"items":[{"id":"a"}],"next_page":"t"}',
      "\ufeff{",
      "[",
    ]) {
      expect(peek(text), text).toBe("none");
    }
  });
});

describe("peekNextPageAtTail: the next token read from an items-first page's tail, before the parse", () => {
  const peek = (text: string) => peekNextPageAtTail(Buffer.from(text));

  test("the token of a compact page with items, whatever its items hold", () => {
    const items = '[{"id":"a","user_agent":"x\\"],\\"next_page\\":\\"y"},{"x":[1],"next_page":"inner"}]';
    expect(peek(`{"items":${items},"next_page":"tok/+=="}`)).toBe("tok/+==");
    expect(peek(`{"items":${items},"next_page":"é \\u0041"}`)).toBe("é A");
    expect(JSON.parse(`{"items":${items},"next_page":"tok/+=="}`).next_page).toBe("tok/+==");
  });

  test("nothing for a last page, an empty page, a cut body or another shape", () => {
    for (const text of [
      '{"items":[{"id":"a"}],"next_page":null}',
      '{"items":[],"next_page":"t"}',
      '{"items":[{"id":"a"}],"next_page":"t',
      '{"items":[{"id":"a"}],"next_page":"t"} ',
      '{"items":[{"id":"a"}],"next_page":7}',
      '{"items":[{"id":"a"}]}',
      '{"next_page":"t","items":[{"id":"a"}]}',
      '{ "items":[{"id":"a"}],"next_page":"t"}',
      '{"items":[{"id":"a"',
      "",
    ]) {
      expect(peek(text), text).toBeUndefined();
    }
  });
});

describe("peekNextPage: a whole body in either order", () => {
  test("reads the token wherever the order puts it", () => {
    expect(peekNextPage(Buffer.from('{"next_page":"t1","items":[{"id":"a"}]}'))).toBe("t1");
    expect(peekNextPage(Buffer.from('{"items":[{"id":"a"}],"next_page":"t2"}'))).toBe("t2");
    expect(peekNextPage(Buffer.from('{"next_page":null,"items":[{"id":"a"}]}'))).toBeUndefined();
    expect(peekNextPage(Buffer.from('{"items":[{"id":"a"}],"next_page":null}'))).toBeUndefined();
  });
});
