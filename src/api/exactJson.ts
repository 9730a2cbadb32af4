/**
 * ApiCallWithPrice `duration` is an int64 (spec), and JSON.parse reads every number as a double:
 * past 2^53 the digits it keeps are not the ones sent. A page holding such a duration is parsed
 * again here, reading `items[i].duration` as a BigInt when it is an integer beyond the safe range;
 * everything else comes out as JSON.parse makes it. Only for pages that need it: this parser is
 * plain JavaScript and much slower than JSON.parse.
 */

/** True when some item's duration is a number JSON.parse could not have read exactly. */
export function hasInexactDuration(items: readonly unknown[]): boolean {
  for (const item of items) {
    if (item === null || typeof item !== "object") continue;
    const duration = (item as { duration?: unknown }).duration;
    if (typeof duration === "number" && Number.isInteger(duration) && !Number.isSafeInteger(duration))
      return true;
  }
  return false;
}

/**
 * The page's `items` with every integer `duration` beyond 2^53 as a BigInt. `text` must be JSON
 * that JSON.parse has read already (so it is well-formed and its top level is an object).
 */
export function itemsWithExactDurations(text: string): unknown[] {
  const parser = new ExactParser(text);
  const body = parser.value("");
  const items = (body as { items?: unknown } | null)?.items;
  return Array.isArray(items) ? items : [];
}

/**
 * The page's items, read again with exact durations when JSON.parse rounded one (int64 beyond 2^53).
 * A page the exact reader cannot take (nesting deeper than its stack) keeps JSON.parse's items:
 * the schema then rejects the rounded duration rather than store wrong digits.
 */
export function exactItems(items: unknown[], bytes: Buffer): unknown[] {
  if (!hasInexactDuration(items)) return items;
  try {
    return itemsWithExactDurations(bytes.toString("utf8"));
  } catch {
    return items;
  }
}

/**
 * One item as exactItems makes it: `item` is JSON.parse's reading of `bytes`, read again with an
 * exact duration when JSON.parse rounded it (and kept as it is when the exact reader cannot take it).
 */
export function exactItem(item: unknown, bytes: Buffer): unknown {
  if (!hasInexactDuration([item])) return item;
  try {
    return new ExactParser(bytes.toString("utf8")).value("item");
  } catch {
    return item;
  }
}

/**
 * A JSON number kept as the text the server wrote ("12.30", "1e-7"): what parseWithNumberTexts makes
 * of every number, so that money reaches the schema with every digit sent and no double between.
 */
export class JsonNumberText {
  constructor(readonly text: string) {}
}

/**
 * The body with every number as a JsonNumberText. For small bodies whose numbers are money (the
 * invoices listing): this parser is much slower than JSON.parse. `text` must be well-formed JSON.
 */
export function parseWithNumberTexts(text: string): unknown {
  const parser = new ExactParser(text, true);
  return parser.value("");
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const INTEGER = /^-?\d+$/;
const WHITESPACE = /[ \t\n\r]*/y;

/** True when the quote at `at` follows an odd number of backslashes: it is part of the string. */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === 92) backslashes += 1;
  return backslashes % 2 === 1;
}

/**
 * Nesting the recursive reader descends before it hands a value to JSON.parse: about 3 stack frames
 * a level, well inside V8's stack, and deeper than any record the transforms store (MAX_JSON_DEPTH
 * levels, 1000), so that a record nested deeper is read, and refused, rather than the whole page.
 */
const RECURSION_LIMIT = 1500;

/** A recursive-descent JSON reader that knows where it is: "" (top), "items", "item", "duration". */
class ExactParser {
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly numbersAsText = false,
  ) {}

  value(where: string, depth = 0): unknown {
    this.skipWhitespace();
    const char = this.text[this.at];
    if ((char === "{" || char === "[") && depth >= RECURSION_LIMIT) return this.deepValue();
    if (char === "{") return this.object(where, depth);
    if (char === "[") return this.array(where, depth);
    if (char === '"') return this.string();
    if (char === "t" || char === "f" || char === "n") return this.literal();
    return this.number(where === "duration");
  }

  private object(where: string, depth: number): Record<string, unknown> {
    const result: Record<string, unknown> = {};
    this.at += 1;
    this.skipWhitespace();
    if (this.text[this.at] === "}") {
      this.at += 1;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      const key = this.string();
      this.skipWhitespace();
      this.expect(":");
      const child =
        where === "" && key === "items"
          ? "items"
          : where === "item" && key === "duration"
            ? "duration"
            : "other";
      // Own data properties, as JSON.parse defines them: a key "__proto__" stays a key.
      Object.defineProperty(result, key, {
        value: this.value(child, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipWhitespace();
      if (this.text[this.at] === ",") {
        this.at += 1;
        continue;
      }
      this.expect("}");
      return result;
    }
  }

  private array(where: string, depth: number): unknown[] {
    const result: unknown[] = [];
    this.at += 1;
    this.skipWhitespace();
    if (this.text[this.at] === "]") {
      this.at += 1;
      return result;
    }
    for (;;) {
      result.push(this.value(where === "items" ? "item" : "other", depth + 1));
      this.skipWhitespace();
      if (this.text[this.at] === ",") {
        this.at += 1;
        continue;
      }
      this.expect("]");
      return result;
    }
  }

  /**
   * The string at the cursor. Its end is found by looking for a quote with an even number of
   * backslashes before it, and JSON.parse checks what lies between: a regular expression over the
   * whole string backtracks once per character and overflows the stack on a string of a few MB.
   */
  private string(): string {
    if (this.text[this.at] !== '"') throw new SyntaxError(`expected a string at ${this.at}`);
    let quote = this.text.indexOf('"', this.at + 1);
    while (quote !== -1 && isEscaped(this.text, quote)) quote = this.text.indexOf('"', quote + 1);
    if (quote === -1) throw new SyntaxError(`unterminated string at ${this.at}`);
    const literal = this.text.slice(this.at, quote + 1);
    this.at = quote + 1;
    return JSON.parse(literal) as string;
  }

  /**
   * An object or array nested RECURSION_LIMIT levels down, read by JSON.parse, which does not recurse
   * on the stack: its end is found by counting brackets outside strings. Its numbers are doubles,
   * but no record that deep is stored (the transforms refuse JSON nested deeper than
   * MAX_JSON_DEPTH), so only the rest of the page needs to be read exactly.
   */
  private deepValue(): unknown {
    const start = this.at;
    let open = 0;
    for (;;) {
      const char = this.text[this.at];
      if (char === undefined) throw new SyntaxError(`unterminated value at ${start}`);
      if (char === '"') {
        this.string();
        continue;
      }
      this.at += 1;
      if (char === "{" || char === "[") open += 1;
      else if ((char === "}" || char === "]") && --open === 0) break;
    }
    return JSON.parse(this.text.slice(start, this.at));
  }

  private literal(): boolean | null {
    for (const [word, value] of [
      ["true", true],
      ["false", false],
      ["null", null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    throw new SyntaxError(`unexpected character at ${this.at}`);
  }

  private number(exactInteger: boolean): number | bigint | JsonNumberText {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (match === null) throw new SyntaxError(`expected a value at ${this.at}`);
    this.at += match[0].length;
    if (this.numbersAsText) return new JsonNumberText(match[0]);
    const value = Number(match[0]);
    if (exactInteger && INTEGER.test(match[0]) && !Number.isSafeInteger(value)) return BigInt(match[0]);
    return value;
  }

  private skipWhitespace(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.exec(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  private expect(char: string): void {
    if (this.text[this.at] !== char) throw new SyntaxError(`expected ${char} at ${this.at}`);
    this.at += 1;
  }
}

/**
 * JSON text of a value parseWithNumberTexts made: every JsonNumberText written back as the digits
 * the server sent, so a stored copy (a reject's raw_json, an invoice's discounts) is what was read.
 */
export function stringifyWithNumberTexts(value: unknown): string {
  if (value instanceof JsonNumberText) return value.text;
  if (Array.isArray(value)) return `[${value.map((item) => stringifyWithNumberTexts(item)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const fields = Object.entries(value).map(
      ([key, item]) => `${JSON.stringify(key)}:${stringifyWithNumberTexts(item)}`,
    );
    return `{${fields.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
