import { describe, expect, test } from "vitest";
import { itemsArrayJson, peekNextPage } from "../../src/api/itemsJson.js";

const at = (text: string) => itemsArrayJson(Buffer.from(text), JSON.parse(text))?.toString();

describe("itemsArrayJson: the items array as the server sent it, only when that is certain", () => {
  test("Dropshot's compact shape gives the exact array text, for a token, null and an empty page", () => {
    const items = '[{"id":"a","user_agent":"x\\"],\\"next_page\\":\\"y é 🦖"},{"id":"b"}]';
    expect(at(`{"items":${items},"next_page":"tok/+=="}`)).toBe(items);
    expect(at(`{"items":${items},"next_page":null}`)).toBe(items);
    expect(at('{"items":[],"next_page":null}')).toBe("[]");
    expect(at('{"items":[],"next_page":"é"}')).toBe("[]");
    const parsed = JSON.parse(at(`{"items":${items},"next_page":"t"}`) ?? "");
    expect(parsed[0].user_agent).toBe('x"],"next_page":"y é 🦖');
  });

  test("a nested next_page key inside an item cannot be taken for the page's", () => {
    const text = '{"items":[{"x":[1],"next_page":"inner"}],"next_page":"outer"}';
    expect(at(text)).toBe('[{"x":[1],"next_page":"inner"}]');
  });

  test("any other shape is left to re-serialisation", () => {
    for (const text of [
      '{ "items":[],"next_page":null}',
      '{"items": [],"next_page":null}',
      '{"items":[],"next_page": null}',
      '{"items":[],"next_page":null }',
      '{"items":[]}',
      '{"next_page":null,"items":[]}',
      '{"items":[],"extra":[1],"next_page":null}',
      '{"items":[],"next_page":"a\\/b"}',
      '{"items":[],"next_page":7}',
      '{"items":[],"next_page":null}\n',
    ]) {
      expect(at(text), text).toBeUndefined();
    }
  });
});

describe("peekNextPage: the next token read from a page's tail, before the parse", () => {
  const peek = (text: string) => peekNextPage(Buffer.from(text));

  test("the token of a compact page with items, whatever its items hold", () => {
    const items = '[{"id":"a","user_agent":"x\\"],\\"next_page\\":\\"y"},{"x":[1],"next_page":"inner"}]';
    expect(peek(`{"items":${items},"next_page":"tok/+=="}`)).toBe("tok/+==");
    expect(peek(`{"items":${items},"next_page":"é \\u0041"}`)).toBe("é A");
    // What the parse finds, for each of those.
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
