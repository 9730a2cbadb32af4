import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { OutputSkippingFilter } from "../../src/api/operationBody.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { outputFiles, outputSizes } from "../../src/transform/outputFiles.js";
import { exportOnce, queryDb, tempWorkspace } from "../helpers/exportHarness.js";

/** Feeds `body` to a fresh filter in chunks of `size` bytes; returns what it kept and measured. */
function filtered(body: Buffer, size: number) {
  const filter = new OutputSkippingFilter();
  const kept: Buffer[] = [];
  for (let at = 0; at < body.length; at += size) kept.push(...filter.write(body.subarray(at, at + size)));
  kept.push(...filter.end());
  return { kept: Buffer.concat(kept), outputs: filter.outputs };
}

/** What reading the whole body would give: the body with "" outputs, and outputFiles' sizes. */
function expected(json: string) {
  const body = JSON.parse(json) as Record<string, unknown>;
  const sizes = new Map(outputFiles(body).map((file) => [file.name, file.bytes]));
  const outputs = body.outputs as Record<string, unknown> | undefined;
  const emptied =
    outputs === undefined
      ? body
      : {
          ...body,
          outputs: Object.fromEntries(
            Object.entries(outputs).map(([k, v]) => [k, typeof v === "string" ? "" : v]),
          ),
        };
  return { emptied, sizes, plainText: body.type === "text_to_cad_multi_file_iteration" };
}

const BODIES: [string, string][] = [
  [
    "base64 outputs, padding and an escaped slash",
    '{"type":"file_conversion","id":"x","outputs":{"a.step":"QUJDRA==","b\\/c.obj":"QU\\/JD+w==","e":""},"status":"completed"}',
  ],
  ["outputs before type", '{"outputs":{"m.stl":"c29saWQgcGFydAo="},"type":"file_conversion"}'],
  ["base64 that stops at '='", '{"type":"text_to_cad","outputs":{"x":"QUJD=RA=="}}'],
  ["url-safe and stray characters", '{"type":"text_to_cad","outputs":{"x":"-_-_ QU$JD\\nRA"}}'],
  [
    "plain text with escapes and non-ASCII",
    '{"type":"text_to_cad_multi_file_iteration","outputs":{"main.kcl":"a\\"b\\\\c\\n\\u00e9\\u20ac\\ud83d\\ude00 é","lone":"\\ud83d!\\udc00"}}',
  ],
  ["an escaped key that means outputs", '{"type":"file_conversion","out\\u0070uts":{"k":"QUJD"}}'],
  [
    "outputs elsewhere are kept whole",
    '{"type":"file_conversion","details":{"outputs":{"k":"QUJD"}},"list":[{"outputs":{"k":"QQ=="}}],"outputs":{"k":"QUJDRA"}}',
  ],
  [
    "non-string outputs are kept",
    '{"type":"file_conversion","outputs":{"n":null,"o":{"deep":"QUJD"},"s":"QQ"}}',
  ],
  ["no outputs", '{"type":"file_mass","mass":1.5,"error":null}'],
  ["an error body", '{"message":"not found","request_id":"r"}'],
];

describe("the output-skipping parser", () => {
  test.each(BODIES)("%s: the body without the files, and their sizes, at any chunking", (_, json) => {
    const body = Buffer.from(json, "utf8");
    const want = expected(json);
    for (let size = 1; size <= body.length; size++) {
      const { kept, outputs } = filtered(body, size);
      expect(JSON.parse(kept.toString("utf8"))).toEqual(want.emptied);
      for (const [name, bytes] of want.sizes) {
        const measured = outputs.get(name);
        expect(want.plainText ? measured?.textBytes : measured?.base64Bytes, `${name} at chunk ${size}`).toBe(
          bytes,
        );
      }
    }
  });

  test("what it keeps does not grow with the output: it never holds the file", () => {
    const body = (bytes: number) =>
      Buffer.from(
        JSON.stringify({
          type: "file_conversion",
          id: "0198c2a4-6a7b-7cc4-9d3e-5f1a2b3c4d5e",
          outputs: {
            "output.step": Buffer.alloc(bytes, "ISO-10303-21;").toString("base64"),
            "b.obj": "QQ==",
          },
        }),
      );
    const small = filtered(body(1000), 65_536);
    const big = filtered(body(20_000_000), 65_536);
    expect(big.kept.length).toBe(small.kept.length);
    expect(big.kept.length).toBeLessThan(200);
    expect(big.outputs.get("output.step")?.base64Bytes).toBe(20_000_000);
    expect(big.outputs.get("b.obj")?.base64Bytes).toBe(1);
  });
});

test("any base64-looking value, stray characters included, is sized as Buffer.from would, at any chunking", () => {
  // Mostly base64 digits, sometimes url-safe ones, whitespace, punctuation, non-ASCII or a '=':
  // long clean runs take the decoder's path, the rest the one-by-one count.
  const character = fc.oneof(
    {
      weight: 30,
      arbitrary: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"),
    },
    { weight: 1, arbitrary: fc.constantFrom("-", "_", " ", "$", ".", "é", "=", "\\n") },
  );
  fc.assert(
    fc.property(fc.array(character, { maxLength: 400 }), fc.integer({ min: 1, max: 97 }), (chars, size) => {
      const value = chars.join("");
      const body = Buffer.from(JSON.stringify({ type: "file_conversion", outputs: { "a.step": value } }));
      const { outputs } = filtered(body, size);
      expect(outputs.get("a.step")?.base64Bytes).toBe(Buffer.from(value, "base64").length);
    }),
    { numRuns: 300, seed: 17 },
  );
});

/** JSON.parse's complaint about `text` without where (the filter's body is shorter), or undefined. */
function parseError(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/ in JSON at position.*$/s, "");
  }
}

/** A body whose one output value is `raw`, as written in the JSON (escapes and all). */
function bodyWithRawOutput(raw: string, type = "file_conversion"): Buffer {
  return Buffer.from(`{"type":"${type}","outputs":{"a.step":"${raw}"},"status":"completed"}`, "utf8");
}

describe("an output value JSON.parse would refuse fails the body as reading it whole would", () => {
  test.each([
    ["a raw control character among base64 digits", "QUJD\u0001REVG"],
    ["a raw tab after the padding", "QQ==\t"],
    ["a raw newline in the last, partial group", "QUJDRA\n"],
    ["an unknown escape", "QUJD\\qRA=="],
    ["a \\u escape with a letter that is not hex", "QU\\u12G4JD"],
    ["a \\u escape cut by the closing quote", "QUJD\\u12"],
  ])("%s", (_, raw) => {
    for (const type of ["file_conversion", "text_to_cad_multi_file_iteration"]) {
      const body = bodyWithRawOutput(raw, type);
      const whole = parseError(body.toString("utf8"));
      expect(whole, "the whole body is refused").toBeDefined();
      for (let size = 1; size <= body.length; size++) {
        expect(parseError(filtered(body, size).kept.toString("utf8")), `${type} at chunk ${size}`).toBe(
          whole,
        );
      }
    }
  });

  test("a control character anywhere in long plain text after an '=' is found, at any alignment", () => {
    for (let at = 0; at < 70; at++) {
      const text = `x = 1;${" ".repeat(at)}\u0007${" ".repeat(70 - at)}`;
      const body = bodyWithRawOutput(text, "text_to_cad_multi_file_iteration");
      const whole = parseError(body.toString("utf8"));
      expect(whole).toMatch(/control character/);
      for (const size of [1, 3, 4, 7, 16, 64, body.length]) {
        expect(parseError(filtered(body, size).kept.toString("utf8")), `at ${at}, chunk ${size}`).toBe(whole);
      }
      // The same text without the control character is sized whole.
      const clean = bodyWithRawOutput(text.replace("\u0007", " "), "text_to_cad_multi_file_iteration");
      expect(filtered(clean, 16).outputs.get("a.step")?.textBytes).toBe(text.length);
    }
  });

  test("any value of digits, escapes good and bad, and raw control characters: refused exactly when the whole body is", () => {
    const piece = fc.oneof(
      {
        weight: 20,
        arbitrary: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"),
      },
      { weight: 2, arbitrary: fc.constantFrom("=", " ", "é", "\\n", "\\/", "\\u00e9", "\\\\") },
      { weight: 1, arbitrary: fc.constantFrom("\u0001", "\t", "\u001f", "\\q", "\\x", "\\u12G4", "\\uZZZZ") },
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 120 }), fc.integer({ min: 1, max: 61 }), (pieces, size) => {
        const body = bodyWithRawOutput(pieces.join(""));
        const whole = parseError(body.toString("utf8"));
        const { kept, outputs } = filtered(body, size);
        expect(parseError(kept.toString("utf8"))).toBe(whole);
        if (whole === undefined) {
          const value =
            (JSON.parse(body.toString("utf8")) as { outputs: Record<string, string> }).outputs["a.step"] ??
            "";
          expect(outputs.get("a.step")?.base64Bytes).toBe(Buffer.from(value, "base64").length);
          expect(outputs.get("a.step")?.textBytes).toBe(Buffer.byteLength(value));
        }
      }),
      { numRuns: 400, seed: 41 },
    );
  });
});

test("a parsed output is sized without decoding it, as outputFiles sizes it by decoding", () => {
  // Clean base64 (with its padding), stray and url-safe characters, a '=' inside, non-ASCII text.
  const character = fc.oneof(
    {
      weight: 30,
      arbitrary: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"),
    },
    { weight: 1, arbitrary: fc.constantFrom("-", "_", " ", "\n", "$", "=", "==", "é", "Ł", "😀", "\ud800") },
  );
  const value = fc.array(character, { maxLength: 300 }).map((chars) => chars.join(""));
  fc.assert(
    fc.property(
      fc.constantFrom("file_conversion", "text_to_cad", "text_to_cad_multi_file_iteration"),
      fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(value, fc.constant(7)), { maxKeys: 4 }),
      (type, outputs) => {
        const fields = JSON.parse(JSON.stringify({ type, outputs }));
        const decoded = outputFiles(fields).map(({ name, bytes }) => ({ name, bytes }));
        expect(outputSizes(fields)).toEqual(decoded);
      },
    ),
    { numRuns: 500, seed: 29 },
  );
});

describe("an export of operations with MB outputs", () => {
  let sim: RunningSimulator;
  const workspace = tempWorkspace();
  const OUTPUT_BYTES = 1536 * 1024;

  beforeAll(async () => {
    sim = await startSimulator({ seed: 5, calls: 60, days: 2, users: 1, outputBytes: OUTPUT_BYTES });
  });
  afterAll(async () => {
    await sim.close();
    await (await workspace).cleanup();
  });

  test("stores names and byte counts, with bodies larger than --max-response-mb", async () => {
    const { db, out } = await workspace;
    const token = sim.users[0]?.token ?? "";
    // Each body with a file is over 2 MB on the wire; only what is kept counts against the 1 MB cap.
    const { exitCode, summary } = await exportOnce({
      baseUrl: sim.url,
      token,
      flags: { db, out },
      maxResponseMb: 1,
    });
    expect(exitCode).toBe(0);
    const rows = await queryDb(
      db,
      "SELECT id::VARCHAR AS id, operation_type, output_count, output_bytes::BIGINT AS output_bytes, outputs::VARCHAR AS outputs FROM async_operations WHERE output_count > 0",
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(summary.operations?.rejected).toBe(0);
    for (const row of rows) {
      const response = await fetch(`${sim.url}/async/operations/${String(row.id)}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      const served = (await response.json()) as Record<string, unknown>;
      const files = outputFiles(served).map((file) => ({ name: file.name, bytes: file.bytes }));
      expect(files[0]?.bytes).toBe(OUTPUT_BYTES);
      expect(JSON.parse(String(row.outputs))).toEqual(files);
      expect(Number(row.output_bytes)).toBe(files.reduce((sum, file) => sum + file.bytes, 0));
    }
  });
});
