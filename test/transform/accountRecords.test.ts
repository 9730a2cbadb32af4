import { describe, expect, test } from "vitest";
import { parseWithNumberTexts } from "../../src/api/exactJson.js";
import { SecretBox } from "../../src/secrets/secretBox.js";
import { balanceRow } from "../../src/transform/balanceRow.js";
import { INVOICE_COLUMNS, INVOICE_LINE_COLUMNS, invoiceRows } from "../../src/transform/invoiceRow.js";
import { MAX_RECORD_BYTES } from "../../src/transform/limits.js";
import { memberRows, tokenRows } from "../../src/transform/spenderRows.js";

/**
 * The record-level rules of the account resources: any text a column can hold is stored as sent
 * (control characters, a `__proto__` key), what no column can hold is a reason, and money follows
 * the calls' rule (exact, or rounded half-even with the printed text kept and a flag).
 */

/** An invoice as the client reads it: numbers kept as the digits sent. */
function invoice(json: string): unknown {
  return parseWithNumberTexts(json);
}

function column(
  values: readonly unknown[],
  name: string,
  columns: typeof INVOICE_COLUMNS | typeof INVOICE_LINE_COLUMNS,
) {
  return values[columns.findIndex(([column]) => column === name)];
}

const keep = (email: string) => email;

describe("invoices", () => {
  test("a __proto__ key is kept in metadata, extra, discounts and a line's metadata and extra", () => {
    const result = invoiceRows(
      invoice(
        '{"id":"in_1","created_at":"2026-11-01T00:00:00Z","metadata":{"__proto__":"m","a":"b"},"__proto__":{"x":1.50},"discounts":[{"__proto__":2}],"lines":[{"amount":1,"metadata":{"__proto__":"lm"},"__proto__":"le"}]}',
      ),
      keep,
    );
    if (!result.ok) throw new Error(result.reject.reason);
    const row = result.rows.invoice;
    expect(column(row, "metadata", INVOICE_COLUMNS)).toBe('{"__proto__":"m","a":"b"}');
    expect(column(row, "extra", INVOICE_COLUMNS)).toBe('{"__proto__":{"x":1.50}}');
    expect(column(row, "discounts", INVOICE_COLUMNS)).toBe('[{"__proto__":2}]');
    const [line] = result.rows.lines;
    expect(column(line ?? [], "metadata", INVOICE_LINE_COLUMNS)).toBe('{"__proto__":"lm"}');
    expect(column(line ?? [], "extra", INVOICE_LINE_COLUMNS)).toBe('{"__proto__":"le"}');
  });

  test("control characters are text like any other: stored as sent", () => {
    const text = "tab\there\u0001\u001b[31mred\u007f";
    const result = invoiceRows(
      { id: "in_1", created_at: "2026-11-01T00:00:00Z", description: text, metadata: { [text]: text } },
      keep,
    );
    if (!result.ok) throw new Error(result.reject.reason);
    expect(column(result.rows.invoice, "description", INVOICE_COLUMNS)).toBe(text);
    expect(JSON.parse(String(column(result.rows.invoice, "metadata", INVOICE_COLUMNS)))).toEqual({
      [text]: text,
    });
  });

  test.each([
    ["a metadata key", '{"metadata":{"\\ud800k":"v"}}', "metadata.\uFFFDk"],
    ["a metadata value", '{"metadata":{"k":"\\udc00"}}', "metadata"],
    ["an unknown field's key", '{"\\udbff":1}', "\uFFFD"],
    ["a string in discounts", '{"discounts":[{"name":"\\ud800"}]}', "discounts[0].name"],
    ["a line's metadata key", '{"lines":[{"metadata":{"\\ud800":"v"}}]}', "lines[0].metadata.\uFFFD"],
  ])("a lone surrogate in %s is a reason, naming where it is", (_where, fields, at) => {
    const json = `{"id":"in_1","created_at":"2026-11-01T00:00:00Z",${fields.slice(1)}`;
    const result = invoiceRows(invoice(json), keep);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reject.recordId).toBe("in_1");
    expect(result.reject.reason).toMatch(/lone (UTF-16 )?surrogate/);
    expect(result.reject.reason).toContain(at);
  });

  test("an invoice nested 100,000 levels deep: its page is read, it is refused naming the depth, its reject kept as a note", () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    const page = parseWithNumberTexts(
      `{"items":[{"id":"in_deep","created_at":"2026-11-01T00:00:00Z","x":${deep}},{"id":"in_ok","created_at":"2026-11-01T00:00:00Z","total":1.10}]}`,
    ) as { items: unknown[] };
    const [deepResult, okResult] = page.items.map((item) => invoiceRows(item, keep));
    expect(deepResult?.ok).toBe(false);
    if (deepResult !== undefined && !deepResult.ok) {
      expect(deepResult.reject.reason).toContain("JSON nested deeper than 1000 levels");
      expect(deepResult.reject.rawJson).toContain("nested too deeply to write");
    }
    expect(okResult?.ok && column(okResult.rows.invoice, "total", INVOICE_COLUMNS)).toBe("1.1");
  });

  test("an invoice whose rows hold more than 16 MiB is a reason naming its size", () => {
    const result = invoiceRows(
      {
        id: "in_big",
        created_at: "2026-11-01T00:00:00Z",
        lines: [{ description: "é".repeat(MAX_RECORD_BYTES / 2) }],
      },
      keep,
    );
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.reject.reason).toMatch(/record is \d+ bytes as rows, above the 16777216-byte limit/);
  });

  test("more than 6 decimals: rounded half-even, the printed text in money_raw and the flag set", () => {
    const result = invoiceRows(
      invoice(
        '{"id":"in_1","created_at":"2026-11-01T00:00:00Z","total":1.0000005,"tax":2.0000015,"subtotal":3.5,"lines":[{"amount":0.12345655e1}]}',
      ),
      keep,
    );
    if (!result.ok) throw new Error(result.reject.reason);
    const row = result.rows.invoice;
    expect(column(row, "total", INVOICE_COLUMNS)).toBe("1");
    expect(column(row, "tax", INVOICE_COLUMNS)).toBe("2.000002");
    expect(column(row, "subtotal", INVOICE_COLUMNS)).toBe("3.5");
    expect(JSON.parse(String(column(row, "money_raw", INVOICE_COLUMNS)))).toEqual({
      tax: "2.0000015",
      total: "1.0000005",
    });
    expect(column(row, "money_flags", INVOICE_COLUMNS)).toBe("rounded");
    const [line] = result.rows.lines;
    expect(column(line ?? [], "amount", INVOICE_LINE_COLUMNS)).toBe("1.234566");
    expect(column(line ?? [], "money_raw", INVOICE_LINE_COLUMNS)).toBe('{"amount":"1.2345655"}');
    expect(column(line ?? [], "money_flags", INVOICE_LINE_COLUMNS)).toBe("rounded");
  });

  test("an amount stored exactly has no money_raw and no flag", () => {
    const result = invoiceRows(
      invoice('{"id":"in_1","created_at":"2026-11-01T00:00:00Z","total":-12.5}'),
      keep,
    );
    if (!result.ok) throw new Error(result.reject.reason);
    expect(column(result.rows.invoice, "total", INVOICE_COLUMNS)).toBe("-12.5");
    expect(column(result.rows.invoice, "money_raw", INVOICE_COLUMNS)).toBeNull();
    expect(column(result.rows.invoice, "money_flags", INVOICE_COLUMNS)).toBeNull();
  });

  test.each([
    [
      '"total":1e12',
      "amount 1000000000000 has more than 12 integer digits: it does not fit DECIMAL(18,6) (at total)",
    ],
    [
      '"lines":[{"amount":-1234567890123.5}]',
      "lines[0]: amount -1234567890123.5 has more than 12 integer digits",
    ],
    ['"tax":"ten"', "expected a decimal number"],
  ])("%s is refused: only out-of-range values and non-numbers are", (fields, reason) => {
    const result = invoiceRows(invoice(`{"id":"in_1","created_at":"2026-11-01T00:00:00Z",${fields}}`), keep);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reject.reason).toContain(reason);
  });
});

describe("balance", () => {
  const context = { runId: "r", takenAt: "2026-11-01T00:00:00Z", scope: "user" };
  const body = {
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
    monthly_api_credits_remaining: 10,
    monthly_api_credits_remaining_monetary_value: "1.0000005",
    stable_api_credits_remaining: 0,
    stable_api_credits_remaining_monetary_value: "999999999999.999999",
  };

  test("more than 6 decimals: rounded half-even, kept as printed in money_raw, flagged", () => {
    const result = balanceRow(body, context);
    if (!result.ok) throw new Error(result.reason);
    expect(result.row.monthly_api_credits_remaining_monetary_value).toBe("1");
    expect(JSON.parse(result.row.money_raw ?? "null")).toEqual({
      monthly_api_credits_remaining_monetary_value: "1.0000005",
    });
    expect(result.row.money_flags).toBe("rounded");
  });

  test("a __proto__ key of the body and of subscription_details is kept", () => {
    const raw = JSON.parse(
      `${JSON.stringify(body).slice(0, -1)},"__proto__":{"a":1},"subscription_details":{"__proto__":"s"}}`,
    );
    const result = balanceRow(raw, context);
    if (!result.ok) throw new Error(result.reason);
    expect(result.row.extra).toBe('{"__proto__":{"a":1}}');
    expect(result.row.subscription_details).toBe('{"__proto__":"s"}');
  });

  test.each([
    ['"\\ud800":1', "at \uFFFD"],
    ['"subscription_details":{"\\udc00":"x"}', "at subscription_details.\uFFFD"],
  ])("a lone surrogate in a key (%s) is a reason", (field, at) => {
    const raw = JSON.parse(`${JSON.stringify(body).slice(0, -1)},${field}}`);
    const result = balanceRow(raw, context);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toContain(at);
  });
});

describe("tokens and members", () => {
  const token = {
    id: "0a1b2c3d-0000-4000-8000-0000000000aa",
    user_id: "0a1b2c3d-0000-4000-8000-000000000001",
    token: "****ab12",
    is_valid: true,
    created_at: "2026-01-01T00:00:00Z",
    updated_at: "2026-01-01T00:00:00Z",
  };

  test("a refused item nested 100,000 levels deep is kept as a note, and the listing goes on", () => {
    const deep = JSON.parse(`{"id":"bad","x":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
    const { rows, refused } = tokenRows([deep, token], "api_token");
    expect(rows).toHaveLength(1);
    expect(refused[0]?.raw_json).toContain("nested too deeply to write");
  });

  test("a label with control characters is stored; a lone surrogate or a 17 MB label is refused", () => {
    const { rows, refused } = tokenRows(
      [
        { ...token, label: "a\u0000b\u001b[2J" },
        { ...token, label: "\ud800" },
        { ...token, label: "x".repeat(MAX_RECORD_BYTES + 1) },
      ],
      "api_token",
    );
    expect(rows.map((row) => row.label)).toEqual(["a\u0000b\u001b[2J"]);
    expect(refused.map((item) => item.reason)).toEqual([
      expect.stringMatching(/lone UTF-16 surrogate/),
      expect.stringMatching(/^api_token: record is \d+ bytes as rows, above the 16777216-byte limit/),
    ]);
  });

  test("a member whose name would make a row over 16 MiB is refused with its size; its email as the policy says", () => {
    const member = {
      id: "0a1b2c3d-0000-4000-8000-0000000000bb",
      name: "n".repeat(MAX_RECORD_BYTES + 1),
      email: "ada@example.com",
      role: "member",
      created_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-01-01T00:00:00Z",
    };
    const { rows, refused } = memberRows([member], "drop", new SecretBox(Buffer.alloc(32, 1)));
    expect(rows).toEqual([]);
    expect(refused[0]?.reason).toMatch(/^org_member: record is \d+ bytes as rows/);
    expect(refused[0]?.raw_json).not.toContain("ada@example.com");
  });
});
