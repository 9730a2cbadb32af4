import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { EndpointTemplater } from "../../src/transform/endpointTemplate.js";
import { SPEC_PATHS } from "../../src/transform/specPaths.js";

const specFile = path.resolve(import.meta.dirname, "../../spec/zoo-openapi.json");

describe("EndpointTemplater", () => {
  const templater = new EndpointTemplater();
  test.each([
    ["/async/operations/0198c2a4-6a7b-7cc4-9d3e-5f1a2b3c4d5e", "/async/operations/{id}"],
    ["/file/conversion/step/obj", "/file/conversion/{src_format}/{output_format}"],
    ["/file/conversion", "/file/conversion"],
    ["/user/api-calls", "/user/api-calls"],
    ["/user/api-calls/0198c2a4-6a7b-7cc4-9d3e-5f1a2b3c4d5e", "/user/api-calls/{id}"],
    ["/user/api-calls?limit=5", "/user/api-calls"],
    ["/unit/conversion/length/m/ft", "/unit/conversion/length/{input_unit}/{output_unit}"],
    ["/ai/text-to-cad/stl", "/ai/text-to-cad/{output_format}"],
    ["/ml/text-to-cad/multi-file/iteration", "/ml/text-to-cad/multi-file/iteration"],
    ["/ws/modeling/commands", "/ws/modeling/commands"],
    ["/", "/"],
  ])("%s -> %s", (endpoint, template) => {
    expect(templater.templateOf(endpoint)).toBe(template);
    expect(templater.templateOf(endpoint)).toBe(template);
  });

  test.each([
    ["/beta/widgets/0198c2a4-6a7b-7cc4-9d3e-5f1a2b3c4d5e/parts/42", "/beta/widgets/{id}/parts/{n}"],
    ["/something/new", "/something/new"],
    ["", ""],
  ])("unknown %j falls back to placeholders: %s", (endpoint, template) => {
    expect(templater.templateOf(endpoint)).toBe(template);
  });
});

test("SPEC_PATHS is exactly the spec's paths", () => {
  const spec = JSON.parse(readFileSync(specFile, "utf8")) as { paths: Record<string, unknown> };
  expect([...SPEC_PATHS].sort()).toEqual(Object.keys(spec.paths).sort());
});
