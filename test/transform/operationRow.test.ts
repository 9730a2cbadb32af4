import { describe, expect, test } from "vitest";
import { notFoundOperation } from "../../src/transform/emptyOperation.js";
import { transformOperation } from "../../src/transform/operationRow.js";

const ID = "0198c2a4-6a7b-7cc4-9d3e-5f1a2b3c4d5e";
const USER = "48f46e74-3130-4dfb-8717-d6dcdd0fb317";
const AT = "2026-11-01T00:00:00.000000Z";

const conversion = {
  id: ID,
  type: "file_conversion",
  status: "completed",
  user_id: USER,
  created_at: "2026-10-01T10:00:00.123456789Z",
  started_at: "2026-10-01T10:00:01Z",
  completed_at: "2026-10-01T10:00:05Z",
  updated_at: "2026-10-01T10:00:05Z",
  error: null,
  src_format: "step",
  output_format: "obj",
  output_format_options: {
    type: "obj",
    units: "mm",
    coords: { forward: { axis: "y", direction: "negative" }, up: { axis: "z", direction: "positive" } },
  },
  outputs: {
    "part.obj": Buffer.from("v 0 0 0\n").toString("base64"),
    "part.mtl": Buffer.from("x").toString("base64"),
  },
};

describe("transformOperation", () => {
  test("a known variant: scalars in columns, options in details, outputs as names and sizes", () => {
    const result = transformOperation(ID, conversion, AT);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.row).toMatchObject({
      id: ID,
      fetch_status: "found",
      operation_type: "file_conversion",
      status: "completed",
      src_format: "step",
      output_format: "obj",
      created_at: "2026-10-01T10:00:00.123456Z",
      output_count: 2,
      output_bytes: 9,
      outputs: [
        { name: "part.obj", bytes: 8 },
        { name: "part.mtl", bytes: 1 },
      ],
      raw_unknown: null,
    });
    expect(result.row.details).toEqual({ output_format_options: conversion.output_format_options });
    expect(JSON.stringify(result.row)).not.toContain(conversion.outputs["part.obj"]);
  });

  test("a measurement keeps its result value; center of mass its coordinates", () => {
    const mass = {
      ...conversion,
      type: "file_mass",
      mass: 12.5,
      output_unit: "kg",
      material_density: 2,
      material_density_unit: "kg:m3",
    };
    const massRow = transformOperation(ID, { ...mass, outputs: undefined }, AT);
    expect(massRow.ok && massRow.row).toMatchObject({
      result_value: 12.5,
      output_unit: "kg",
      material_density: 2,
    });
    const center = {
      ...conversion,
      type: "file_center_of_mass",
      center_of_mass: { x: 1, y: 2, z: 3 },
      output_unit: "mm",
    };
    const centerRow = transformOperation(ID, { ...center, outputs: undefined, output_format: undefined }, AT);
    expect(centerRow.ok && centerRow.row).toMatchObject({
      center_of_mass_x: 1,
      center_of_mass_y: 2,
      center_of_mass_z: 3,
    });
  });

  test("an unknown type is kept whole, outputs reduced to sizes", () => {
    const future = {
      id: ID,
      type: "file_unfold",
      status: "in_progress",
      flatness: 0.2,
      outputs: { "a.dxf": "QUJD" },
    };
    const result = transformOperation(ID, future, AT);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.row.operation_type).toBe("file_unfold");
    expect(result.row.status).toBe("in_progress");
    expect(result.row.raw_unknown).toEqual({ ...future, outputs: [{ name: "a.dxf", bytes: 3 }] });
  });

  test.each([
    ["a bad enum", { ...conversion, output_format: "dwg" }, /output_format/],
    ["a missing required field", { ...conversion, src_format: undefined }, /src_format/],
    ["another id", { ...conversion, id: USER }, /differs from the API call id/],
    ["not an object", "nope", /object/i],
  ])("%s is rejected with the path", (_, body, reason) => {
    const result = transformOperation(ID, body, AT);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });

  test.each([
    ["long text", "x".repeat(17 * 1024 * 1024)],
    // 3 M characters that JSON writes as 6 bytes each: a body far below the limit in characters.
    ["control characters", "\u0001".repeat(3 * 1024 * 1024)],
  ])("a row above the loader's object limit is rejected with its size: %s", (_, notes) => {
    const result = transformOperation(ID, { ...conversion, notes }, AT);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(/bytes as a row, above the 16777216-byte limit/);
  });

  test("a large row below the limit loads whole", () => {
    const result = transformOperation(ID, { ...conversion, notes: "x".repeat(8 * 1024 * 1024) }, AT);
    expect(result.ok).toBe(true);
    if (result.ok) expect(String(result.row.details?.notes).length).toBe(8 * 1024 * 1024);
  });

  test("not found is a row of its own", () => {
    expect(notFoundOperation(ID, AT)).toMatchObject({
      id: ID,
      fetch_status: "not_found",
      status: null,
      output_count: 0,
    });
  });
});
