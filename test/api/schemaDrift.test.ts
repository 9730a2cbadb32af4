import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { z } from "zod";
import * as schemas from "../../src/api/schemas/index.js";

// Fails when src/api/schemas drifts from the OpenAPI spec the official clients are generated from, vendored in
// spec/zoo-openapi.json (`npm run spec:check -- PATH` brings in a newer copy).
const here = import.meta.dirname ?? path.dirname(fileURLToPath(import.meta.url));
const SPEC_PATH = path.resolve(here, "../../spec/zoo-openapi.json");

interface SpecNode {
  $ref?: string;
  allOf?: SpecNode[];
  oneOf?: SpecNode[];
  enum?: unknown[];
  type?: string;
  nullable?: boolean;
  properties?: Record<string, SpecNode>;
  required?: string[];
  items?: SpecNode;
  additionalProperties?: SpecNode | boolean;
}
interface Spec {
  components: { schemas: Record<string, SpecNode> };
}

const spec = JSON.parse(readFileSync(SPEC_PATH, "utf8")) as Spec;

function component(from: Spec, name: string): SpecNode {
  const node = from.components.schemas[name];
  if (node === undefined) throw new Error(`the spec has no components.schemas.${name}`);
  return node;
}

interface Resolved {
  node: SpecNode;
  nullable: boolean;
  /** The component name when reached through a $ref, for readable test names. */
  name?: string | undefined;
}

/** Follows `$ref` and single-element `allOf` (how the spec attaches a description to a ref). */
function resolve(from: Spec, start: SpecNode): Resolved {
  let node = start;
  let nullable = start.nullable === true;
  let name: string | undefined;
  for (;;) {
    if (node.$ref !== undefined) {
      name = node.$ref.replace("#/components/schemas/", "");
      node = component(from, name);
    } else if (node.allOf?.length === 1 && node.allOf[0] !== undefined) {
      node = node.allOf[0];
    } else {
      return { node, nullable, name };
    }
    nullable ||= node.nullable === true;
  }
}

/** A plain `enum`, or the spec's enum style: `oneOf` of single-value `{type: string, enum: [x]}`. */
function enumValues(node: SpecNode): string[] | undefined {
  if (node.enum !== undefined) return node.enum.map(String);
  if (node.oneOf?.every((member) => member.enum !== undefined && member.properties === undefined)) {
    return node.oneOf.flatMap((member) => (member.enum ?? []).map(String));
  }
  return undefined;
}

type AnyZod = z.core.$ZodType;
interface ZodDef {
  type: string;
  innerType?: AnyZod;
  in?: AnyZod;
  element?: AnyZod;
  valueType?: AnyZod;
  options?: readonly AnyZod[];
  shape?: Record<string, AnyZod>;
  entries?: Record<string, string | number>;
  values?: readonly unknown[];
}
const defOf = (schema: AnyZod): ZodDef => schema._zod.def as unknown as ZodDef;

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"]);

/** Peels optional/nullable/default wrappers and pipes (price is union -> transform) off a field schema. */
function unwrap(schema: AnyZod): { optional: boolean; nullable: boolean; core: AnyZod } {
  const optional = schema._zod.optin === "optional";
  let nullable = false;
  let core = schema;
  for (;;) {
    const def = defOf(core);
    if (def.type === "nullable") nullable = true;
    const next = def.type === "pipe" ? def.in : WRAPPERS.has(def.type) ? def.innerType : undefined;
    if (next === undefined) return { optional, nullable, core };
    core = next;
  }
}

const sorted = (values: Iterable<unknown>): string[] => [...values].map(String).sort();

/** Each value on one side only, e.g. "furlong: in the spec, not in ours"; empty when the sets are equal. */
function setDiff(specSide: Iterable<unknown>, ours: Iterable<unknown>): string[] {
  const specSet = new Set(sorted(specSide));
  const ourSet = new Set(sorted(ours));
  return [
    ...[...specSet]
      .filter((value) => !ourSet.has(value))
      .map((value) => `${value}: in the spec, not in ours`),
    ...[...ourSet]
      .filter((value) => !specSet.has(value))
      .map((value) => `${value}: in ours, not in the spec`),
  ];
}

/** The `type` literal of a discriminated variant, spec side and zod side. */
function specVariantType(from: Spec, variant: SpecNode): string | undefined {
  const typeNode = variant.properties?.type;
  return typeNode === undefined ? undefined : enumValues(resolve(from, typeNode).node)?.[0];
}
function zodVariantType(option: AnyZod): string | undefined {
  const typeField = defOf(option).shape?.type;
  return typeField === undefined ? undefined : String(defOf(unwrap(typeField).core).values?.[0]);
}

const isIntSchema = (schema: AnyZod): boolean => schema instanceof z.ZodNumber && schema.isInt === true;

/**
 * Optional strings the spec does not mark nullable, where ours also takes null (read as absent) so
 * that a null never costs the call its place in the cost views.
 */
const NULL_AS_ABSENT: ReadonlySet<string> = new Set(
  ["email", "endpoint", "ip_address", "origin", "request_query_params", "stripe_invoice_item_id"].map(
    (field) => `ApiCallWithPrice.${field}`,
  ),
);

/** What is wrong with `core` as an implementation of the spec node (one level; objects are visited apart). */
function kindProblems(from: Spec, { node }: Resolved, core: AnyZod): string[] {
  const def = defOf(core);
  const values = enumValues(node);
  if (values !== undefined) {
    const ours =
      def.type === "enum"
        ? Object.values(def.entries ?? {})
        : def.type === "literal"
          ? def.values
          : undefined;
    if (ours === undefined) return [`spec has an enum, ours is a ${def.type}`];
    return setDiff(values, ours).map((problem) => `enum value ${problem}`);
  }
  const want = (ok: boolean, wanted: string) => (ok ? [] : [`spec has ${wanted}, ours is a ${def.type}`]);
  if (node.oneOf !== undefined) return want(def.type === "union", "a oneOf");
  switch (node.type) {
    case "string":
      return want(def.type === "string", "a string");
    case "integer":
      // An int64 is a union of a safe-integer number and a BigInt (src/api/exactJson.ts).
      return want(
        isIntSchema(core) || (def.type === "union" && (def.options ?? []).some(isIntSchema)),
        "an integer",
      );
    case "number":
      return want(
        def.type === "number" || (def.options ?? []).some((option) => defOf(option).type === "number"),
        "a number",
      );
    case "boolean":
      return want(def.type === "boolean", "a boolean");
    case "array":
      if (def.type !== "array" || def.element === undefined || node.items === undefined)
        return want(false, "an array");
      return kindProblems(from, resolve(from, node.items), unwrap(def.element).core);
    case "object":
      if (node.properties !== undefined) return want(def.type === "object", "an object");
      if (def.type !== "record" || def.valueType === undefined) return want(false, "a map");
      return typeof node.additionalProperties === "object"
        ? kindProblems(from, resolve(from, node.additionalProperties), def.valueType)
        : [];
    default:
      return [`spec node of type ${node.type} is not handled by this test`];
  }
}

interface Finding {
  name: string;
  problems: string[];
}

/** Walks the spec and our schemas side by side from the roots; one finding per object, field and union. */
function audit(from: Spec, roots: ReadonlyArray<readonly [string, AnyZod]>): Finding[] {
  const findings: Finding[] = [];
  const seen = new Map<SpecNode, Set<AnyZod>>();

  const visit = (name: string, node: SpecNode, schema: AnyZod): void => {
    const visited = seen.get(node) ?? new Set<AnyZod>();
    if (visited.has(schema)) return;
    seen.set(node, visited.add(schema));
    const def = defOf(schema);
    if (node.oneOf !== undefined && enumValues(node) === undefined && def.options !== undefined) {
      const options = new Map(def.options.map((option) => [zodVariantType(option), option]));
      const specTypes = node.oneOf.map((variant) => specVariantType(from, variant));
      const problems = setDiff(specTypes, options.keys()).map((problem) => `type ${problem}`);
      findings.push({ name: `${name}: variant types`, problems });
      for (const variant of node.oneOf) {
        const type = specVariantType(from, variant);
        const option = options.get(type);
        if (option !== undefined) visit(`${name}[${type}]`, variant, option);
      }
    } else if (node.properties !== undefined && def.shape !== undefined) {
      visitObject(name, node, def.shape);
    } else if (node.items !== undefined && def.element !== undefined) {
      const items = resolve(from, node.items);
      visit(items.name ?? `${name}[]`, items.node, unwrap(def.element).core);
    } else if (typeof node.additionalProperties === "object" && def.valueType !== undefined) {
      const values = resolve(from, node.additionalProperties);
      visit(values.name ?? `${name}{}`, values.node, unwrap(def.valueType).core);
    }
  };

  const visitObject = (name: string, node: SpecNode, shape: Record<string, AnyZod>): void => {
    const specProperties = node.properties ?? {};
    const ourRequired = Object.keys(shape).filter((key) => shape[key]?._zod.optin !== "optional");
    const specRequired = node.required ?? [];
    findings.push({
      name: `${name}: required set`,
      problems: setDiff(specRequired, ourRequired).map((problem) => `required ${problem}`),
    });
    const extra = Object.keys(shape).filter((key) => !(key in specProperties));
    findings.push({
      name: `${name}: no property the spec lacks`,
      problems: extra.map((key) => `${key} is not in the spec`),
    });
    for (const [key, property] of Object.entries(specProperties)) {
      const field = shape[key];
      if (field === undefined) {
        findings.push({ name: `${name}.${key}`, problems: ["missing from our schema"] });
        continue;
      }
      const resolved = resolve(from, property);
      const ours = unwrap(field);
      const problems = kindProblems(from, resolved, ours.core);
      const required = specRequired.includes(key);
      if (ours.optional === required)
        problems.push(required ? "spec: required, ours: optional" : "spec: optional");
      if (ours.nullable !== resolved.nullable && !(ours.nullable && NULL_AS_ABSENT.has(`${name}.${key}`)))
        problems.push(`spec nullable: ${resolved.nullable}, ours: ${ours.nullable}`);
      findings.push({ name: `${name}.${key}`, problems });
      visit(resolved.name ?? `${name}.${key}`, resolved.node, ours.core);
    }
  };

  for (const [name, schema] of roots) visit(name, component(from, name), schema);
  return findings;
}

const ROOTS = [
  ["ApiCallWithPriceResultsPage", schemas.ApiCallWithPriceResultsPageSchema],
  ["ApiCallWithPrice", schemas.ApiCallWithPriceSchema],
  ["AsyncApiCallOutput", schemas.KnownAsyncOperationSchema],
  ["OutputFormat3d", schemas.OutputFormat3dSchema],
  ["InputFormat3d", schemas.InputFormat3dSchema],
  ["Selection", schemas.SelectionSchema],
  ["System", schemas.SystemSchema],
  ["Point3d", schemas.Point3dSchema],
  ["SourceRangePrompt", schemas.SourceRangePromptSchema],
  ["Error", schemas.ApiErrorBodySchema],
] as const;

// Every exported `<Name>Schema` that is a zod enum mirrors components.schemas.<Name> (enums.ts exports the
// values array it was built from, so checking the schema checks the array too). The field walk above
// also checks each enum where it is used.
const ENUMS = Object.entries(schemas).flatMap(([exportName, value]) =>
  value instanceof z.ZodEnum ? [[exportName.replace(/Schema$/, ""), value.options.map(String)] as const] : [],
);

describe("schemas match the Zoo OpenAPI spec", () => {
  // Tuples with %s: vitest shortens `$name` interpolations to 40 characters, which would hide the field.
  const findings = audit(spec, ROOTS).map(({ name, problems }) => [name, problems] as const);
  test.each(findings)("%s", (_name, problems) => {
    expect(problems).toEqual([]);
  });

  test.each(ENUMS)("enum %s has exactly the spec's values", (name, values) => {
    expect(sorted(values)).toEqual(sorted(enumValues(component(spec, name)) ?? []));
  });

  test("ASYNC_OPERATION_TYPES are the spec's AsyncApiCallOutput types and our union's", () => {
    const specTypes = (component(spec, "AsyncApiCallOutput").oneOf ?? []).map((v) =>
      specVariantType(spec, v),
    );
    const unionTypes = schemas.KnownAsyncOperationSchema.options.map((option) => option.shape.type.value);
    expect(sorted(schemas.ASYNC_OPERATION_TYPES)).toEqual(sorted(specTypes));
    expect(sorted(unionTypes)).toEqual(sorted(specTypes));
  });
});

// A drift test that cannot fail is a defect: show that each kind of spec change is reported.
describe("the drift check notices", () => {
  const problemsAfter = (edit: (copy: Spec) => void): string => {
    const copy = structuredClone(spec);
    edit(copy);
    return audit(copy, ROOTS)
      .flatMap((finding) => finding.problems.map((problem) => `${finding.name}: ${problem}`))
      .join("\n");
  };
  const props = (copy: Spec, name: string) => component(copy, name).properties ?? {};

  test.each<[string, (copy: Spec) => void, string]>([
    [
      "a new required property",
      (copy) => {
        props(copy, "ApiCallWithPrice").cost = { type: "string" };
        component(copy, "ApiCallWithPrice").required?.push("cost");
      },
      "ApiCallWithPrice: required set: required cost: in the spec, not in ours",
    ],
    [
      "a removed property",
      (copy) => delete props(copy, "ApiCallWithPrice").seconds,
      "seconds is not in the spec",
    ],
    [
      "a nullability change",
      (copy) => Object.assign(props(copy, "ApiCallWithPrice").price ?? {}, { nullable: false }),
      "ApiCallWithPrice.price: spec nullable: false, ours: true",
    ],
    [
      "a new enum value",
      (copy) => component(copy, "UnitLength").oneOf?.push({ type: "string", enum: ["furlong"] }),
      "OutputFormat3d[obj].units: enum value furlong: in the spec, not in ours",
    ],
    [
      "a new async operation type",
      (copy) =>
        component(copy, "AsyncApiCallOutput").oneOf?.push({
          properties: { type: { enum: ["file_weight"] } },
        }),
      "AsyncApiCallOutput: variant types: type file_weight: in the spec, not in ours",
    ],
    [
      "a type change",
      (copy) => Object.assign(props(copy, "Point3d").x ?? {}, { type: "string" }),
      "Point3d.x: spec has a string, ours is a number",
    ],
  ])("%s", (_label, edit, expected) => {
    expect(problemsAfter(edit)).toContain(expected);
  });
});
