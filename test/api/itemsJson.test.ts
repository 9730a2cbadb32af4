import { describe, expect, test } from "vitest";
import {
  itemsArrayJson,
  peekNextPage,
  peekNextPageAtHead,
  peekNextPageAtTail,
} from "../../src/api/itemsJson.js";

const at = (text: string) => itemsArrayJson(Buffer.from(text), JSON.parse(text))?.toString();

describe("itemsArrayJson: the items array as the server sent it, only when that is certain", () => {
  const items = '[{"id":"a","user_agent":"x\\"],\\"next_page\\":\\"y é 🦖"},{"id":"b"}]';

  test("Dropshot's order (next_page first) gives the exact array text, for a token, null and an empty page", () => {
    expect(at(`{"next_page":"tok/+==","items":${items}}`)).toBe(items);
    expect(at(`{"next_page":null,"items":${items}}`)).toBe(items);
    expect(at('{"next_page":null,"items":[]}')).toBe("[]");
    expect(at('{"next_page":"é","items":[]}')).toBe("[]");
    const parsed = JSON.parse(at(`{"next_page":"t","items":${items}}`) ?? "");
    expect(parsed[0].user_agent).toBe('x"],"next_page":"y é 🦖');
  });

  test("the other order (items first) gives the exact array text too", () => {
    expect(at(`{"items":${items},"next_page":"tok/+=="}`)).toBe(items);
    expect(at(`{"items":${items},"next_page":null}`)).toBe(items);
    expect(at('{"items":[],"next_page":null}')).toBe("[]");
    expect(at('{"items":[],"next_page":"é"}')).toBe("[]");
  });

  test("a nested next_page or items key inside an item cannot be taken for the page's", () => {
    const inner = '[{"x":[1],"next_page":"inner","items":[2]}]';
    expect(at(`{"items":${inner},"next_page":"outer"}`)).toBe(inner);
    expect(at(`{"next_page":"outer","items":${inner}}`)).toBe(inner);
  });

  test("any other shape is left to re-serialisation", () => {
    for (const text of [
      '{ "items":[],"next_page":null}',
      '{"items": [],"next_page":null}',
      '{"items":[],"next_page": null}',
      '{"items":[],"next_page":null }',
      '{"items":[]}',
      '{"items":[],"extra":[1],"next_page":null}',
      '{"items":[],"next_page":"a\\/b"}',
      '{"items":[],"next_page":7}',
      '{"items":[],"next_page":null}\n',
      '{ "next_page":null,"items":[]}',
      '{"next_page": null,"items":[]}',
      '{"next_page":null, "items":[]}',
      '{"next_page":null,"items": []}',
      '{"next_page":null,"items":[] }',
      '{"next_page":null,"items":[]}\n',
      '{"next_page":"a\\/b","items":[]}',
      '{"next_page":"\\u0041","items":[]}',
      '{"next_page":7,"items":[]}',
      '{"next_page":null,"extra":1,"items":[]}',
      '{\n  "next_page": null,\n  "items": []\n}',
    ]) {
      expect(at(text), text).toBeUndefined();
    }
  });
});

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
