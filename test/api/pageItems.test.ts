import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { PageItems, splitCompactPage } from "../../src/api/pageItems.js";

const split = (text: string) => splitCompactPage(Buffer.from(text));
const texts = (text: string) => split(text)?.items.map((item) => item.toString());

describe("splitCompactPage: a compact page cut into its items' bytes, only when the frame is certain", () => {
  const items = [
    '{"id":"a","user_agent":"x\\"],\\"next_page\\":\\"y é 🦖 {["}',
    '{"id":"b","n":[1,{"c":[]}]}',
    "7",
    '"s,]"',
    "null",
  ];
  const array = `[${items.join(",")}]`;

  test("both key orders, a token, null and an empty page", () => {
    expect(texts(`{"next_page":"tok/+==","items":${array}}`)).toEqual(items);
    expect(split(`{"next_page":"tok/+==","items":${array}}`)?.nextPage).toBe("tok/+==");
    expect(texts(`{"next_page":null,"items":${array}}`)).toEqual(items);
    expect(split(`{"next_page":null,"items":${array}}`)?.nextPage).toBeNull();
    expect(texts(`{"items":${array},"next_page":"t\\"}"}`)).toEqual(items);
    expect(split(`{"items":${array},"next_page":"t\\"}"}`)?.nextPage).toBe('t"}');
    expect(texts('{"next_page":null,"items":[]}')).toEqual([]);
    expect(texts('{"items":[],"next_page":null}')).toEqual([]);
  });

  test("a nested next_page or items key inside an item cannot be taken for the page's", () => {
    const inner = '[{"x":[1],"next_page":"inner","items":[2]}]';
    expect(split(`{"items":${inner},"next_page":"outer"}`)?.nextPage).toBe("outer");
    expect(texts(`{"items":${inner},"next_page":"outer"}`)).toEqual([inner.slice(1, -1)]);
    expect(split(`{"next_page":"outer","items":${inner}}`)?.nextPage).toBe("outer");
    expect(texts(`{"next_page":"outer","items":${inner}}`)).toEqual([inner.slice(1, -1)]);
  });

  test("any other shape, a body cut short or an empty item is left to JSON.parse", () => {
    for (const text of [
      '{ "next_page":null,"items":[]}',
      '{"next_page": null,"items":[]}',
      '{"next_page":null,"items":[] }',
      '{"next_page":null,"items":[{"a":1},]}',
      '{"next_page":null,"items":[,{"a":1}]}',
      '{"next_page":null,"items":[{"a":1}]}x',
      '{"next_page":null,"items":[{"a":1}],"x":1}',
      '{"next_page":null,"items":[{"a":"]}',
      '{"next_page":null,"items":[{"a":1}',
      '{"next_page":7,"items":[]}',
      '{"items":[],"next_page":7}',
      '{"items":[],"next_page":"a","next_page":"b"}',
      '{"items":{},"next_page":null}',
      '{"next_page":"a","items":[{"a":1}]]}',
      "[]",
      "",
    ]) {
      expect(split(text), text).toBeUndefined();
    }
  });

  test("for any JSON items, the items parsed one by one equal JSON.parse of the whole body", () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue()),
        fc.option(fc.string()),
        fc.boolean(),
        (values, next, tokenFirst) => {
          const itemsText = JSON.stringify(values);
          const body = tokenFirst
            ? `{"next_page":${JSON.stringify(next)},"items":${itemsText}}`
            : `{"items":${itemsText},"next_page":${JSON.stringify(next)}}`;
          const page = split(body);
          expect(page?.nextPage).toBe(next);
          const items = PageItems.raw(page?.items ?? []);
          expect([...items]).toEqual(JSON.parse(body).items);
        },
      ),
    );
  });

  test("an item's duration beyond 2^53 comes out exact, as a BigInt", () => {
    const page = split('{"next_page":null,"items":[{"duration":9007199254740993},{"duration":5}]}');
    const items = PageItems.raw(page?.items ?? []);
    expect([...items]).toEqual([{ duration: 9007199254740993n }, { duration: 5 }]);
  });

  test("an item that is not JSON throws when it is read, not when the page is cut", () => {
    const page = split('{"next_page":null,"items":[{"a":tru},{"b":1}]}');
    const items = PageItems.raw(page?.items ?? []);
    expect(items.length).toBe(2);
    expect(() => items.at(0)).toThrow(SyntaxError);
    expect(items.at(1)).toEqual({ b: 1 });
  });
});
