import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * A JSON value checked against a schema of spec/zoo-openapi.json's components: object properties
 * (no field the spec does not name, every required one present), JSON types, nullability and the
 * spec's string enums (`oneOf` of single-value enums). Enough for what the simulator writes.
 */
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
}

const SPEC = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../spec/zoo-openapi.json"), "utf8"),
) as { components: { schemas: Record<string, SpecNode> } };

function resolve(start: SpecNode): { node: SpecNode; nullable: boolean } {
  let node = start;
  let nullable = start.nullable === true;
  for (;;) {
    if (node.$ref !== undefined) {
      const name = node.$ref.replace("#/components/schemas/", "");
      const target = SPEC.components.schemas[name];
      if (target === undefined) throw new Error(`the spec has no ${name}`);
      node = target;
    } else if (node.allOf?.length === 1 && node.allOf[0] !== undefined) node = node.allOf[0];
    else return { node, nullable };
    nullable ||= node.nullable === true;
  }
}

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (Number.isInteger(value)) return "integer";
  return typeof value;
}

/** What in `value` the spec's component `name` does not allow, as "path: problem" texts. */
export function specProblems(value: unknown, name: string): string[] {
  return problems(value, { $ref: `#/components/schemas/${name}` }, name);
}

function problems(value: unknown, start: SpecNode, at: string): string[] {
  const { node, nullable } = resolve(start);
  if (value === null) return nullable ? [] : [`${at}: null where the spec does not allow it`];
  const values = node.oneOf?.flatMap((member) => member.enum ?? []) ?? node.enum;
  if (values !== undefined && values.length > 0)
    return values.includes(value)
      ? []
      : [`${at}: ${JSON.stringify(value)} is not one of ${values.join(", ")}`];
  const type = typeOf(value);
  if (node.type === "number" && (type === "number" || type === "integer")) return [];
  if (node.type !== undefined && node.type !== type && !(node.type === "object" && type === "object"))
    return [`${at}: a ${type} where the spec has a ${node.type}`];
  if (type === "array" && node.items !== undefined) {
    const items = node.items;
    return (value as unknown[]).flatMap((item, k) => problems(item, items, `${at}[${k}]`));
  }
  if (type !== "object" || node.properties === undefined) return [];
  const record = value as Record<string, unknown>;
  const properties = node.properties;
  return [
    ...(node.required ?? []).filter((key) => !(key in record)).map((key) => `${at}.${key}: missing`),
    ...Object.entries(record).flatMap(([key, field]) => {
      const property = properties[key];
      return property === undefined
        ? [`${at}.${key}: not in the spec`]
        : problems(field, property, `${at}.${key}`);
    }),
  ];
}
