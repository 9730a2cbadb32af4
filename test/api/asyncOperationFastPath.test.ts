import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { parseAsyncOperationFast, VARIANT_SHAPES } from "../../src/api/schemas/asyncOperationFastPath.js";
import type { FastShape } from "../../src/api/schemas/fastReaders.js";
import { INPUT_FORMAT_SHAPES, OUTPUT_FORMAT_SHAPES } from "../../src/api/schemas/formatOptionsFastPath.js";
import {
  ASYNC_OPERATION_TYPES,
  AsyncOperationSchema,
  FileCenterOfMassSchema,
  FileConversionSchema,
  FileDensitySchema,
  FileMassSchema,
  FileSurfaceAreaSchema,
  FileVolumeSchema,
  InputFormat3dSchema,
  OutputFormat3dSchema,
  parseAsyncOperation,
  TextToCadIterationSchema,
  TextToCadMultiFileIterationSchema,
  TextToCadSchema,
} from "../../src/api/schemas/index.js";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { ABSENT, dateTime, text } from "../helpers/drawnValues.js";
import { validOperation } from "../helpers/hostileApi.js";

/** A zod loose object's fields in order, each with whether it may be left out. */
function zodFields(schema: z.ZodObject): [string, boolean][] {
  return Object.entries(schema.shape).map(([key, field]) => [
    key,
    (field as z.ZodType).safeParse(undefined).success,
  ]);
}

function fastFields(shape: FastShape | undefined): [string, boolean][] {
  return (shape?.fields ?? []).map((field) => [field.key, field.optional]);
}

/** The variants by type, as the union lists them. */
const ZOD_VARIANTS: Record<string, z.ZodObject> = {
  file_conversion: FileConversionSchema,
  file_center_of_mass: FileCenterOfMassSchema,
  file_mass: FileMassSchema,
  file_volume: FileVolumeSchema,
  file_density: FileDensitySchema,
  file_surface_area: FileSurfaceAreaSchema,
  text_to_cad: TextToCadSchema,
  text_to_cad_iteration: TextToCadIterationSchema,
  text_to_cad_multi_file_iteration: TextToCadMultiFileIterationSchema,
};

/** The union's options by the literal of their `type`. */
function byType(options: readonly z.ZodType[]): Map<string, z.ZodObject> {
  return new Map(
    options.map((option) => {
      const schema = option as z.ZodObject;
      return [String((schema.shape.type as z.ZodLiteral).value), schema];
    }),
  );
}

describe("the fast path's shapes", () => {
  test("list every variant's fields in zod's order, optional where zod's are", () => {
    expect(Object.keys(VARIANT_SHAPES).sort()).toEqual([...ASYNC_OPERATION_TYPES].sort());
    for (const type of ASYNC_OPERATION_TYPES) {
      expect(fastFields(VARIANT_SHAPES[type]), type).toEqual(zodFields(ZOD_VARIANTS[type] as z.ZodObject));
    }
  });

  test("list the conversion options' fields as zod does", () => {
    const pairs = [
      [OutputFormat3dSchema.options, OUTPUT_FORMAT_SHAPES],
      [InputFormat3dSchema.options, INPUT_FORMAT_SHAPES],
    ] as const;
    for (const [options, shapes] of pairs) {
      const zod = byType(options);
      expect(Object.keys(shapes).sort()).toEqual([...zod.keys()].sort());
      for (const [type, schema] of zod) expect(fastFields(shapes[type]), type).toEqual(zodFields(schema));
    }
  });
});

/**
 * The promise, for one body: the fast path's answer, when it gives one, is zod's (the same value,
 * keys in the same order at every level), and the combined parse is zod's in every case, the
 * rejections and their messages included. Returns whether the fast path answered.
 */
function expectZodsAnswer(body: unknown): boolean {
  const zod = AsyncOperationSchema.safeParse(body);
  const fast = parseAsyncOperationFast(body);
  const combined = parseAsyncOperation(body);
  const where = JSON.stringify(body)?.slice(0, 2000);
  expect(combined.success, where).toBe(zod.success);
  if (zod.success && combined.success) {
    expect(combined.data, where).toStrictEqual(zod.data);
    expect(JSON.stringify(combined.data), where).toBe(JSON.stringify(zod.data));
  } else if (!zod.success && !combined.success) {
    expect(z.prettifyError(combined.error)).toBe(z.prettifyError(zod.error));
  }
  if (fast !== undefined) expect(zod.success, where).toBe(true);
  return fast !== undefined;
}

/** Every path to a value in a JSON body: keys of objects, indexes of arrays. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== "object") return [];
  const entries: [string | number, unknown][] = [];
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) entries.push([i, value[i]]);
  else for (const key of Object.keys(value)) entries.push([key, (value as Record<string, unknown>)[key]]);
  return entries.flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
}

/** A deep copy of `body` with the value at `path` set (or deleted, for ABSENT). */
function withValue(body: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let target: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const next = target[key];
    if (next === null || typeof next !== "object") return copy;
    target = next as Record<string | number, unknown>;
  }
  const last = path.at(-1) as string | number;
  if (value === ABSENT) delete target[last];
  else Object.defineProperty(target, last, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

const UUID = "8500af67-03ba-4427-91fb-141a94787390";

/** Values of every kind the fields take or refuse, valid enum values of other fields among them. */
const CANDIDATES: unknown[] = [
  ABSENT,
  null,
  "",
  "x",
  UUID,
  UUID.toUpperCase(),
  `${UUID}0`,
  0,
  -0,
  1,
  -1,
  1.5,
  1e300,
  2 ** 53,
  true,
  false,
  {},
  [],
  [1],
  "completed",
  "file_volume",
  "text_to_cad",
  "file_teleport",
  "obj",
  "step",
  "stl",
  "gltf",
  "fbx",
  "m",
  "mm3",
  "kg",
  "kg:m3",
  "cm2",
  "kcl",
  "thumbs_up",
  "y",
  "negative",
  "binary",
  "default_scene",
  "scene_by_index",
  "mesh_by_name",
  "brep",
  "compact",
  "a\ud800",
  { type: "default_scene" },
  {
    type: "obj",
    coords: { forward: { axis: "y", direction: "negative" }, up: { axis: "z", direction: "positive" } },
    units: "m",
  },
  { type: "step" },
  { type: "gltf", storage: "binary", presentation: "compact" },
  { x: 1, y: 2, z: 3 },
  { line: 1, column: 0 },
  JSON.parse('{"a.stl":"AAAA","__proto__":"x"}'),
];

const hostileValue = fc.oneof(
  fc.constantFrom(...CANDIDATES),
  dateTime.map((drawn) => drawn.value),
  text.map((drawn) => drawn.value),
  fc.jsonValue({ maxDepth: 2 }),
);

/** Extra keys: fields no variant has, and names that trip plain objects. */
const extraKey = fc.constantFrom("extra", "__proto__", "constructor", "kind", "type", "1", "toString");

describe("parseAsyncOperation against zod", () => {
  let sim: RunningSimulator;
  let bodies: Record<string, unknown>[];
  beforeAll(async () => {
    sim = await startSimulator({ seed: 3, calls: 1500, days: 5, users: 1 });
    const token = sim.users[0]?.token ?? "";
    const headers = { authorization: `Bearer ${token}` };
    const list = new URL("/user/api-calls", sim.url);
    list.searchParams.set("limit", "5000");
    const calls = (
      (await (await fetch(list, { headers })).json()) as { items: { id: string; method: string }[] }
    ).items;
    bodies = [];
    for (const call of calls.filter((item) => item.method === "POST")) {
      const response = await fetch(new URL(`/async/operations/${call.id}`, sim.url), { headers });
      if (response.status === 200) bodies.push((await response.json()) as Record<string, unknown>);
      else await response.arrayBuffer();
    }
    bodies.push(validOperation(1));
  });
  afterAll(() => sim.close());

  test("answers every body of the simulator, of every type, as zod does", () => {
    const types = new Set(bodies.map((body) => body.type));
    expect(types.size).toBe(ASYNC_OPERATION_TYPES.length);
    for (const body of bodies) expect(expectZodsAnswer(body)).toBe(true);
  });

  test("agrees with zod with any one field of any kind of body set to any kind of value", () => {
    // Bodies that between them hold every type and every kind of conversion options the simulator sent.
    const seen = new Set<string>();
    const chosen: Record<string, unknown>[] = [];
    for (const body of bodies) {
      const options = (field: string) => (body[field] as { type?: unknown } | null | undefined)?.type;
      const kinds = [
        `${body.type}`,
        `out ${options("output_format_options")}`,
        `in ${options("src_format_options")}`,
      ];
      if (kinds.every((kind) => seen.has(kind))) continue;
      for (const kind of kinds) seen.add(kind);
      chosen.push(body);
    }
    let answered = 0;
    let tried = 0;
    const check = (body: unknown) => {
      tried += 1;
      if (expectZodsAnswer(JSON.parse(JSON.stringify(body)))) answered += 1;
    };
    for (const body of chosen) {
      const parents = new Set<string>();
      for (const path of pathsOf(body)) {
        for (const value of CANDIDATES) check(withValue(body, path, value));
        // Keys no shape has, beside the fields of each object.
        const parent = path.slice(0, -1);
        if (parents.has(JSON.stringify(parent))) continue;
        parents.add(JSON.stringify(parent));
        for (const key of ["extra", "__proto__", "kind"]) check(withValue(body, [...parent, key], { a: 1 }));
      }
    }
    expect(seen.size).toBeGreaterThan(25);
    expect(answered).toBeGreaterThan(tried / 10);
    expect(answered).toBeLessThan(tried);
  });

  test("agrees with zod on every generated body, valid or hostile, rejections included", () => {
    let answered = 0;
    let rejected = 0;
    let runs = 0;
    const mutation = fc.tuple(fc.nat(), fc.option(extraKey, { nil: undefined }), hostileValue);
    fc.assert(
      fc.property(fc.nat(), fc.array(mutation, { minLength: 0, maxLength: 3 }), (which, mutations) => {
        let body: unknown = bodies[which % bodies.length];
        for (const [pick, extra, value] of mutations) {
          const paths = pathsOf(body);
          const path = paths[pick % paths.length] ?? [];
          // An extra key goes beside the picked one, in the same object or array.
          const target = extra === undefined ? path : [...path.slice(0, -1), extra];
          // Bodies arrive as JSON: what the parse of the wire text gives is what the schemas see.
          body = JSON.parse(JSON.stringify(withValue(body, target, value)));
        }
        const wire = body;
        runs += 1;
        if (expectZodsAnswer(wire)) answered += 1;
        if (!AsyncOperationSchema.safeParse(wire).success) rejected += 1;
      }),
      { numRuns: 4000, seed: Number(process.env.GEN_SEED ?? 20261126) },
    );
    // The corpus must hold both kinds, and the fast path must take the ordinary bodies.
    expect(rejected).toBeGreaterThan(runs / 5);
    expect(answered).toBeGreaterThan(runs / 5);
  });

  test("leaves to zod what is not a JSON object with a string type", () => {
    for (const raw of [null, undefined, "x", 5, [], [bodies[0]], { type: 7 }, {}]) {
      expect(parseAsyncOperationFast(raw)).toBeUndefined();
      expect(parseAsyncOperation(raw).success).toBe(AsyncOperationSchema.safeParse(raw).success);
    }
  });

  test("keeps an unknown type's body whole, as the schema's transform does", () => {
    const body = JSON.parse('{"a":1,"type":"file_teleport","id":"x","status":7,"b":{"c":2}}');
    expect(expectZodsAnswer(body)).toBe(true);
    expect(parseAsyncOperationFast(body)).toMatchObject({ kind: "unknown", id: "x", status: undefined });
  });
});
