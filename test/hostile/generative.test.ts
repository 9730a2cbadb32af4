import { mkdir } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import { METHODS } from "../../src/api/schemas/enums.js";
import { OperationLoader } from "../../src/load/operationLoader.js";
import { transformOperation } from "../../src/transform/operationRow.js";
import { exportOnce, queryDb, tempWorkspace, withTempWarehouse } from "../helpers/exportHarness.js";
import { HOSTILE_USER_ID, pageBody, sendJson, startHostileApi } from "../helpers/hostileApi.js";

/**
 * Records drawn from the spec's ApiCallWithPrice with boundary values (int32 and int64 edges, month
 * ends and leap days, odd text, prices as doubles and decimal text, nulls, unknown fields named like
 * Object.prototype's), served by the hostile API and exported through the real load paths. For any
 * draw: the run never fails (exit 0 or 4), every record is stored or rejected, every record whose
 * values a column can hold is stored, and stored values are exactly the ones sent.
 */

/** A drawn field value, and whether the exporter must accept it (`ok`). ABSENT leaves the field out. */
interface Drawn {
  value: unknown;
  ok: boolean;
}
const ABSENT = Symbol("absent");
const ok = (value: unknown): Drawn => ({ value, ok: true });
const bad = (value: unknown): Drawn => ({ value, ok: false });

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const LONE_SURROGATE = /\p{Cs}/u;

const int32: fc.Arbitrary<Drawn> = fc.oneof(
  fc.constantFrom(INT32_MIN, INT32_MAX, 0, -1, 200).map(ok),
  fc.integer().map(ok),
  fc.constantFrom(INT32_MAX + 1, INT32_MIN - 1, 2 ** 53 - 1).map(bad),
  fc.constantFrom(null, ABSENT).map(ok),
);

/** Durations as BigInt: the page text carries their exact digits (pageText). */
const int64: fc.Arbitrary<Drawn> = fc.oneof(
  fc.constantFrom(INT64_MIN, INT64_MAX, 2n ** 53n + 1n, -(2n ** 53n) - 1n, 0n, 1_500_000_000n).map(ok),
  fc.bigInt({ min: INT64_MIN, max: INT64_MAX }).map(ok),
  fc.constantFrom(INT64_MAX + 1n, INT64_MIN - 1n).map(bad),
  fc.constantFrom(null, ABSENT).map(ok),
);

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Date-times at the calendar's edges, valid or not, in the forms RFC 3339 allows. */
const dateTime: fc.Arbitrary<Drawn> = fc.oneof(
  fc
    .record({
      year: fc.constantFrom(1, 999, 1000, 1900, 1999, 2000, 2023, 2024, 2026, 9998, 9999),
      month: fc.oneof(fc.constantFrom(1, 2, 12), fc.integer({ min: 1, max: 12 })),
      day: fc.constantFrom(1, 28, 29, 30, 31),
      form: fc.constantFrom("Z", "z", ".123456789Z", "+23:59", "-05:30", ".5-00:00", "-00:01"),
      lowerT: fc.boolean(),
    })
    .map(({ year, month, day, form, lowerT }) => {
      const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
      const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
      const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}${lowerT ? "t" : "T"}23:59:59${form}`;
      // UTC years 1000-9998 (primitives.ts): these offsets move 1000-01-01 and 9998-12-31 out.
      const instant = Date.parse(text.toUpperCase());
      const inRange = instant >= Date.UTC(1000, 0, 1) && instant < Date.UTC(9999, 0, 1);
      return { value: text, ok: day <= days && inRange };
    }),
  fc
    .date({
      min: new Date("1970-01-01T00:00:00Z"),
      max: new Date("2100-01-01T00:00:00Z"),
      noInvalidDate: true,
    })
    .map((date) => ok(date.toISOString())),
  fc.constantFrom("2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:00:00", "").map(bad),
);

/** Text with what JSON, UTF-8 and DuckDB treat specially; a lone surrogate cannot be stored. */
const text: fc.Arbitrary<Drawn> = fc
  .oneof(
    fc.string({ unit: "binary", maxLength: 12 }),
    fc.string({
      unit: fc.constantFrom(
        "a",
        "\u0000",
        "\u001f",
        "\u2028",
        "😀",
        "\ud800",
        "\udfff",
        "é",
        '"',
        "\\",
        "\n",
      ),
      maxLength: 8,
    }),
  )
  .map((value) => ({ value, ok: !LONE_SURROGATE.test(value) }));

const optionalText: fc.Arbitrary<Drawn> = fc.oneof(text, fc.constantFrom(null, ABSENT).map(ok));

/** Prices as the API may print them: doubles of any size and sign, decimal text, nonsense. */
const price: fc.Arbitrary<Drawn> = fc.oneof(
  fc.double({ noNaN: true }).map((n) => ({ value: n, ok: Number.isFinite(n) && Math.abs(n) < 999_999 })),
  fc.constantFrom(0.1 + 0.2, -0.5, 5e-7, 1e-7, -0, 999_999.999_999_5, 0.000_000_5).map(ok),
  fc
    .tuple(fc.constantFrom("", "-", "+"), fc.stringMatching(/^\d{1,8}$/), fc.stringMatching(/^\d{0,10}$/))
    .map(([sign, whole, fraction]) => {
      const decimal = `${sign}${whole}${fraction === "" ? "" : `.${fraction}`}`;
      return { value: decimal, ok: Math.abs(Number(decimal)) < 999_999 };
    }),
  fc.constantFrom("abc", "1e5", "", "1.", "NaN", "1234567890123.5").map(bad),
  fc.constantFrom(null, ABSENT).map(ok),
);

/** Unknown fields, some named like Object.prototype's members. */
const unknownFields: fc.Arbitrary<[string, unknown][]> = fc.uniqueArray(
  fc.tuple(
    fc.constantFrom("__proto__", "constructor", "toString", "request_body", "brand_new"),
    fc.jsonValue({ maxDepth: 2 }),
  ),
  { maxLength: 2, selector: ([key]) => key },
);

const method: fc.Arbitrary<Drawn> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...METHODS).map(ok) },
  fc.constantFrom("BREW", "get").map(bad),
);

/** A field's values that must load, and (for some) values that cannot. */
function split(arbitrary: fc.Arbitrary<Drawn>, hasBad = true) {
  return {
    valid: arbitrary.filter((drawn) => drawn.ok),
    bad: hasBad ? arbitrary.filter((drawn) => !drawn.ok) : undefined,
  };
}

const badText = fc.constantFrom("\ud800", "x\udfff", "\udc00\ud800").map(bad);

const FIELDS = {
  method: split(method),
  created_at: split(dateTime),
  updated_at: split(dateTime),
  started_at: split(fc.oneof(dateTime, fc.constantFrom(null, ABSENT).map(ok))),
  completed_at: split(fc.oneof(dateTime, fc.constantFrom(null, ABSENT).map(ok))),
  status_code: split(int32),
  minutes: split(int32),
  seconds: split(int32),
  duration: split(int64),
  price: split(price),
  user_agent: { valid: text.filter((drawn) => drawn.ok), bad: badText },
  email: { valid: optionalText.filter((drawn) => drawn.ok), bad: badText },
  endpoint: { valid: optionalText.filter((drawn) => drawn.ok), bad: badText },
  origin: { valid: optionalText.filter((drawn) => drawn.ok), bad: badText },
  ip_address: { valid: optionalText.filter((drawn) => drawn.ok), bad: badText },
  request_query_params: { valid: optionalText.filter((drawn) => drawn.ok), bad: badText },
  stripe_invoice_item_id: { valid: optionalText.filter((drawn) => drawn.ok), bad: badText },
};
type FieldName = keyof typeof FIELDS;
const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];

/**
 * A record whose every value can be stored, or one with a single value that cannot (as in the
 * poison catalogue): most draws must load, so that what is stored is checked too.
 */
const drawnRecord = fc
  .record({
    fields: fc.record(
      Object.fromEntries(FIELD_NAMES.map((name) => [name, FIELDS[name].valid])) as Record<
        FieldName,
        fc.Arbitrary<Drawn>
      >,
    ),
    broken: fc.oneof(
      { weight: 2, arbitrary: fc.constant(null) },
      fc
        .constantFrom(...FIELD_NAMES)
        .chain((name) => (FIELDS[name].bad ?? FIELDS[name].valid).map((drawn) => [name, drawn] as const)),
    ),
    unknown: unknownFields,
  })
  .map(({ fields, broken, unknown }) => ({
    ...fields,
    ...(broken === null ? {} : { [broken[0]]: broken[1] }),
    unknown,
  }));
type DrawnRecord = typeof drawnRecord extends fc.Arbitrary<infer T> ? T : never;

interface Sent {
  id: string;
  record: Record<string, unknown>;
  mustLoad: boolean;
  unknown: [string, unknown][];
}

function build(drawn: DrawnRecord, index: number): Sent {
  const id = `0a1b2c3d-0000-4000-8000-${String(index).padStart(12, "0")}`;
  const record: Record<string, unknown> = { id, user_id: HOSTILE_USER_ID, token: HOSTILE_USER_ID };
  let mustLoad = true;
  for (const [field, value] of Object.entries(drawn)) {
    if (field === "unknown") continue;
    const { value: v, ok: valid } = value as Drawn;
    mustLoad &&= valid;
    if (v !== ABSENT) record[field] = v;
  }
  // Own properties, as JSON.parse makes them: an assignment to `__proto__` would set the prototype.
  for (const [key, value] of drawn.unknown) {
    mustLoad &&= !hasLoneSurrogate(value);
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return { id, record, mustLoad, unknown: drawn.unknown };
}

function hasLoneSurrogate(value: unknown): boolean {
  if (typeof value === "string") return LONE_SURROGATE.test(value);
  if (value === null || typeof value !== "object") return false;
  return Object.entries(value).some(([key, child]) => LONE_SURROGATE.test(key) || hasLoneSurrogate(child));
}

/** Microseconds since the epoch of an RFC 3339 time: whole seconds by Date.parse, the fraction as digits. */
function epochMicros(time: string): string {
  const upper = time.toUpperCase();
  const fraction = /\.(\d+)/.exec(upper)?.[1] ?? "";
  const seconds = BigInt(Date.parse(upper.replace(/\.\d+/, "")));
  return String(seconds * 1000n + BigInt(fraction.padEnd(6, "0").slice(0, 6)));
}

/** JSON text with each BigInt as its digits (JSON.stringify refuses BigInt). */
function jsonText(value: unknown): string {
  const marked = JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `@@bigint:${v}@@` : v));
  return marked.replace(/"@@bigint:(-?\d+)@@"/g, "$1");
}

/** A page in the compact shape (raw bytes may go to DuckDB) or Dropshot's order (parsed records only). */
function pageText(items: readonly unknown[], next: string | null, compact: boolean): string {
  const itemsText = jsonText(items);
  return compact
    ? `{"items":${itemsText},"next_page":${JSON.stringify(next)}}`
    : pageBody([], next).replace('"items":[]', () => `"items":${itemsText}`);
}

/** Half-even rounding of plain decimal text to 6 places, as micro-dollars (the test's own oracle). */
function expectedMicros(decimal: string): bigint {
  const negative = decimal.startsWith("-");
  const [whole = "0", fraction = ""] = decimal.replace(/^[+-]/, "").split(".");
  const digits = BigInt(`${whole}${fraction.padEnd(6, "0").slice(0, 6)}`);
  const rest = fraction.slice(6);
  const half =
    rest === "" ? 0 : rest[0] === "5" && /^5(0*)$/.test(rest) ? 1 : rest[0] && rest[0] >= "5" ? 2 : 0;
  const up = half === 2 || (half === 1 && digits % 2n === 1n);
  const magnitude = up ? digits + 1n : digits;
  return negative ? -magnitude : magnitude;
}

/** The plain decimal text of a drawn price, or undefined when no exact expectation is simple. */
function priceText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number") {
    const shown = String(value);
    return shown.includes("e") ? undefined : shown;
  }
  return undefined;
}

function micros(stored: string): bigint {
  const negative = stored.startsWith("-");
  const [whole = "0", fraction = ""] = stored.replace(/^-/, "").split(".");
  const value = BigInt(`${whole}${fraction.padEnd(6, "0")}`);
  return negative ? -value : value;
}

async function checkRun(drawn: DrawnRecord[], limit: number, compact: boolean): Promise<void> {
  const sent = drawn.map((record, i) => build(record, i + 1));
  // Every non-empty page hands out a token; the scan ends on an empty page without one (Dropshot).
  const pages: string[] = [];
  for (let start = 0; start < sent.length; start += limit) {
    const items = sent.slice(start, start + limit).map(({ record }) => record);
    pages.push(pageText(items, `p${pages.length + 1}`, compact));
  }
  pages.push(pageText([], null, compact));
  const api = await startHostileApi((request, res) => {
    const token = request.query.get("page_token");
    sendJson(res, 200, pages[token === null ? 0 : Number(token.slice(1))] ?? pageText([], null, compact));
  });
  const { db, out, cleanup } = await tempWorkspace();
  try {
    const run = await exportOnce({
      baseUrl: api.url,
      token: "t",
      flags: { db, out, limit, operations: false },
    });
    expect(run.summary.message).toBeUndefined();
    expect([0, 4]).toContain(run.exitCode);
    const rows = await queryDb(
      db,
      `SELECT id::VARCHAR AS id, status_code, minutes, seconds, duration_raw::VARCHAR AS duration,
         price_usd::VARCHAR AS price, price_raw, price_flags, user_agent, email, endpoint, origin,
         ip_address, request_query_params, stripe_invoice_item_id, extra::VARCHAR AS extra,
         epoch_us(created_at)::VARCHAR AS created_us
       FROM api_calls`,
    );
    const rejects = await queryDb(db, "SELECT record_id, reason FROM rejects");
    const stored = new Map(rows.map((row) => [String(row.id), row]));
    // Every record is stored or rejected, once; exit 4 exactly when something was rejected.
    expect(rows.length + rejects.length).toBe(sent.length);
    console.log("STATS", rows.length, rejects.length, sent.filter((s) => s.mustLoad).length, compact);
    expect(run.exitCode).toBe(rejects.length > 0 ? 4 : 0);
    for (const reject of rejects) expect(String(reject.reason)).not.toBe("");
    for (const { id, record, mustLoad, unknown } of sent) {
      const row = stored.get(id);
      if (row === undefined) {
        expect(mustLoad, `${id} was rejected: ${JSON.stringify(rejects)}`).toBe(false);
        continue;
      }
      for (const field of ["status_code", "minutes", "seconds"])
        expect(row[field], field).toBe(record[field] ?? null);
      expect(row.duration).toBe(
        record.duration === undefined || record.duration === null ? null : String(record.duration),
      );
      for (const field of [
        "user_agent",
        "email",
        "endpoint",
        "origin",
        "ip_address",
        "request_query_params",
        "stripe_invoice_item_id",
      ])
        expect(row[field], field).toBe(record[field] ?? null);
      expect(row.created_us, String(record.created_at)).toBe(epochMicros(String(record.created_at)));
      const printed = priceText(record.price);
      if (record.price === null || record.price === undefined) expect(row.price).toBeNull();
      else if (printed !== undefined) {
        expect(micros(String(row.price)), `price ${printed}`).toBe(expectedMicros(printed));
        const rounded = (printed.split(".")[1] ?? "").replace(/0+$/, "").length > 6;
        expect(row.price_raw !== null).toBe(rounded);
        expect(String(row.price_flags ?? "").includes("rounded")).toBe(rounded);
        expect(String(row.price_flags ?? "").includes("negative")).toBe(
          printed.startsWith("-") && Number(printed) !== 0,
        );
      }
      if (unknown.length === 0) expect(row.extra).toBeNull();
      else expect(Object.entries(JSON.parse(String(row.extra)))).toEqual(JSON.parse(JSON.stringify(unknown)));
    }
  } finally {
    await api.close();
    await cleanup();
  }
}

// A fixed seed keeps CI deterministic; GEN_SEED=<n> explores other draws.
test("any drawn records: no failed run, nothing lost, what can be stored is stored exactly", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(drawnRecord, { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 1, max: 4 }),
      fc.boolean(),
      checkRun,
    ),
    { numRuns: 30, seed: Number(process.env.GEN_SEED ?? 20261123), endOnFailure: true },
  );
}, 120_000);

/** Values for the fields of an operation body that fill typed columns, or none. */
const operationValue = fc.oneof(
  dateTime.map((drawn) => drawn.value),
  text.map((drawn) => drawn.value),
  fc.constantFrom(HOSTILE_USER_ID, "not-a-uuid", null, 7, 1e300, -0, true, ABSENT),
  fc.jsonValue({ maxDepth: 3 }),
);

const operationBody = fc.record({
  type: fc.constantFrom("file_volume", "file_teleport", "text_to_cad_v2"),
  fields: fc.dictionary(
    fc.constantFrom(
      "user_id",
      "created_at",
      "started_at",
      "completed_at",
      "updated_at",
      "status",
      "error",
      "conversation_id",
      "volume",
      "output_unit",
      "src_format",
      "outputs",
      "prompt",
      "__proto__",
    ),
    operationValue,
    { maxKeys: 6 },
  ),
});

test("any drawn operation body the validator accepts loads, and DuckDB refuses none", async () => {
  await withTempWarehouse(async (warehouse, dir) => {
    const spoolDir = path.join(dir, "spool");
    await mkdir(spoolDir);
    const loader = new OperationLoader(warehouse, { runId: "run", spoolDir, partitioning: "month" });
    let counter = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operationBody, { minLength: 1, maxLength: 6 }), async (bodies) => {
        const rows = [];
        for (const { type, fields } of bodies) {
          counter += 1;
          const id = `0a1b2c3d-0000-4000-9000-${String(counter).padStart(12, "0")}`;
          await warehouse.connection.run(
            "INSERT INTO api_calls (id, user_id, method, created_at, updated_at, first_seen_run_id, last_changed_run_id) VALUES ($id::UUID, $id::UUID, 'POST', now(), now(), 'run', 'run')",
            { id },
          );
          const body: Record<string, unknown> = {
            id,
            type,
            status: "completed",
            user_id: HOSTILE_USER_ID,
            created_at: "2026-10-01T00:00:00Z",
            updated_at: "2026-10-01T00:00:00Z",
            src_format: "obj",
            output_unit: "m3",
          };
          for (const [key, value] of Object.entries(fields)) {
            if (value === ABSENT) delete body[key];
            else
              Object.defineProperty(body, key, {
                value,
                enumerable: true,
                writable: true,
                configurable: true,
              });
          }
          const result = transformOperation(id, JSON.parse(JSON.stringify(body)), "2026-10-02T00:00:00Z");
          if (result.ok) rows.push(result.row);
        }
        accepted += rows.length;
        const committed = await loader.commit(rows, []);
        expect(committed.refusedByDuckDb).toBe(0);
      }),
      { numRuns: 40, seed: Number(process.env.GEN_SEED ?? 20261123), endOnFailure: true },
    );
    // The draws must reach the loader, or this proves nothing.
    expect(accepted).toBeGreaterThan(20);
  });
}, 60_000);
