import { isRfc3339DateTime, isUuid } from "./primitives.js";

// Hand-written readers that mirror zod's: each returns the value zod would output (a copy for
// objects and arrays, in zod's key order) or FAIL where zod might refuse it.

/** What a reader returns when zod might not accept the value: the caller then asks zod. */
export const FAIL: unique symbol = Symbol("leave it to zod");
export type Read = (value: unknown) => unknown;

/** One field of a loose object: its key, how its value is read, and whether it may be left out. */
export interface FastField {
  key: string;
  read: Read;
  optional: boolean;
}

/** A loose object's fields, in the zod shape's order (which is the order zod's output has). */
export interface FastShape {
  fields: readonly FastField[];
  keys: ReadonlySet<string>;
}

export function shape(...fields: FastField[]): FastShape {
  return { fields, keys: new Set(fields.map((field) => field.key)) };
}

export const must = (key: string, read: Read): FastField => ({ key, read, optional: false });
export const may = (key: string, read: Read): FastField => ({ key, read, optional: true });

export const string: Read = (value) => (typeof value === "string" ? value : FAIL);
export const number: Read = (value) => (typeof value === "number" && Number.isFinite(value) ? value : FAIL);
export const boolean: Read = (value) => (typeof value === "boolean" ? value : FAIL);
/** z.int().min(0): a safe integer, not negative. */
export const count: Read = (value) => (Number.isSafeInteger(value) && (value as number) >= 0 ? value : FAIL);
export const uuid: Read = (value) => (typeof value === "string" && isUuid(value) ? value : FAIL);
export const dateTime: Read = (value) =>
  typeof value === "string" && isRfc3339DateTime(value) ? value : FAIL;
export const literal =
  (text: string): Read =>
  (value) =>
    value === text ? value : FAIL;
export function oneOf(values: readonly string[]): Read {
  const allowed: ReadonlySet<unknown> = new Set(values);
  return (value) => (allowed.has(value) ? value : FAIL);
}
export const nullable =
  (read: Read): Read =>
  (value) =>
    value === null ? null : read(value);

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A copy of a loose object as zod makes it: the shape's fields present in the value, in the shape's
 * order, then the other keys in the value's order, their values shared. A `__proto__` key is left
 * to zod: assigning it to a plain object would set the prototype.
 */
export function readObject(
  value: unknown,
  { fields, keys }: FastShape,
): Record<string, unknown> | typeof FAIL {
  if (!isObject(value)) return FAIL;
  const copy: Record<string, unknown> = {};
  for (const { key, read, optional } of fields) {
    const field = value[key];
    if (field === undefined) {
      if (!optional) return FAIL;
      if (Object.hasOwn(value, key)) copy[key] = undefined;
      continue;
    }
    const read_ = read(field);
    if (read_ === FAIL) return FAIL;
    copy[key] = read_;
  }
  for (const key of Object.keys(value)) {
    if (key === "__proto__") return FAIL;
    if (!keys.has(key)) copy[key] = value[key];
  }
  return copy;
}

export const object =
  (fields: FastShape): Read =>
  (value) =>
    readObject(value, fields);

/** A discriminated union of loose objects on `type`. */
export function union(variants: Record<string, FastShape>): Read {
  const byType = new Map(Object.entries(variants));
  return (value) => {
    if (!isObject(value)) return FAIL;
    const variant = byType.get(value.type as string);
    return variant === undefined ? FAIL : readObject(value, variant);
  };
}

export const array =
  (read: Read): Read =>
  (value) => {
    if (!Array.isArray(value)) return FAIL;
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const item = read(value[i]);
      if (item === FAIL) return FAIL;
      copy[i] = item;
    }
    return copy;
  };

/** z.record(z.string(), z.string()): the output files, copied as zod does. */
export const stringRecord: Read = (value) => {
  if (!isObject(value)) return FAIL;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (key === "__proto__" || typeof item !== "string") return FAIL;
    copy[key] = item;
  }
  return copy;
};
