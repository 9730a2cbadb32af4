import type { AsyncOperation } from "./asyncOperation.js";
import { AsyncOperationSchema, isAsyncOperationType } from "./asyncOperation.js";
import {
  API_CALL_STATUSES,
  FILE_EXPORT_FORMATS,
  FILE_IMPORT_FORMATS,
  ML_FEEDBACKS,
  TEXT_TO_CAD_MODELS,
  UNIT_AREAS,
  UNIT_DENSITIES,
  UNIT_LENGTHS,
  UNIT_MASSES,
  UNIT_VOLUMES,
} from "./enums.js";
import {
  array,
  count,
  dateTime,
  FAIL,
  type FastShape,
  isObject,
  literal,
  may,
  must,
  nullable,
  number,
  object,
  oneOf,
  readObject,
  shape,
  string,
  stringRecord,
  union,
  uuid,
} from "./fastReaders.js";
import { INPUT_FORMAT_SHAPES, OUTPUT_FORMAT_SHAPES } from "./formatOptionsFastPath.js";

// The nine variants of asyncOperation.ts for the fast path, field by field and in the zod shapes'
// order; test/api/asyncOperationFastPath.test.ts compares them with zod's.

const position = object(shape(must("column", count), must("line", count)));
const sourceRanges = array(
  object(
    shape(
      may("file", nullable(string)),
      must("prompt", string),
      must("range", object(shape(must("end", position), must("start", position)))),
    ),
  ),
);

const common = [
  may("completed_at", nullable(dateTime)),
  must("created_at", dateTime),
  may("error", nullable(string)),
  must("id", uuid),
  may("started_at", nullable(dateTime)),
  must("status", oneOf(API_CALL_STATUSES)),
  must("updated_at", dateTime),
  must("user_id", uuid),
];
const textToCad = [
  must("conversation_id", uuid),
  may("feedback", nullable(oneOf(ML_FEEDBACKS))),
  must("model", oneOf(TEXT_TO_CAD_MODELS)),
  must("model_version", string),
];
const srcFormat = must("src_format", oneOf(FILE_IMPORT_FORMATS));
const outputFormat = must("output_format", oneOf(FILE_EXPORT_FORMATS));
const outputs = may("outputs", stringRecord);
const optionalNumber = (key: string) => may(key, nullable(number));

export const VARIANT_SHAPES: Record<string, FastShape> = {
  file_conversion: shape(
    ...common,
    outputFormat,
    may("output_format_options", nullable(union(OUTPUT_FORMAT_SHAPES))),
    outputs,
    srcFormat,
    may("src_format_options", nullable(union(INPUT_FORMAT_SHAPES))),
    must("type", literal("file_conversion")),
  ),
  file_center_of_mass: shape(
    ...common,
    may("center_of_mass", nullable(object(shape(must("x", number), must("y", number), must("z", number))))),
    must("output_unit", oneOf(UNIT_LENGTHS)),
    srcFormat,
    must("type", literal("file_center_of_mass")),
  ),
  file_mass: shape(
    ...common,
    optionalNumber("mass"),
    may("material_density", number),
    must("material_density_unit", oneOf(UNIT_DENSITIES)),
    must("output_unit", oneOf(UNIT_MASSES)),
    srcFormat,
    must("type", literal("file_mass")),
  ),
  file_volume: shape(
    ...common,
    must("output_unit", oneOf(UNIT_VOLUMES)),
    srcFormat,
    must("type", literal("file_volume")),
    optionalNumber("volume"),
  ),
  file_density: shape(
    ...common,
    optionalNumber("density"),
    may("material_mass", number),
    must("material_mass_unit", oneOf(UNIT_MASSES)),
    must("output_unit", oneOf(UNIT_DENSITIES)),
    srcFormat,
    must("type", literal("file_density")),
  ),
  file_surface_area: shape(
    ...common,
    must("output_unit", oneOf(UNIT_AREAS)),
    srcFormat,
    optionalNumber("surface_area"),
    must("type", literal("file_surface_area")),
  ),
  text_to_cad: shape(
    ...common,
    ...textToCad,
    may("code", nullable(string)),
    may("kcl_version", nullable(string)),
    outputFormat,
    outputs,
    must("prompt", string),
    must("type", literal("text_to_cad")),
  ),
  text_to_cad_iteration: shape(
    ...common,
    ...textToCad,
    must("code", string),
    must("original_source_code", string),
    may("prompt", nullable(string)),
    must("source_ranges", sourceRanges),
    must("type", literal("text_to_cad_iteration")),
  ),
  text_to_cad_multi_file_iteration: shape(
    ...common,
    ...textToCad,
    may("kcl_version", nullable(string)),
    outputs,
    may("project_name", nullable(string)),
    may("prompt", nullable(string)),
    must("source_ranges", sourceRanges),
    must("type", literal("text_to_cad_multi_file_iteration")),
  ),
};

const VARIANTS = new Map(Object.entries(VARIANT_SHAPES));

/**
 * What AsyncOperationSchema.safeParse returns for a body it accepts, without zod's machinery, which
 * costs more than the rest of the operation's handling. Undefined whenever zod might judge otherwise
 * (any field it would refuse, a `__proto__` key) or the body is not a plain JSON object: the caller
 * then asks zod, so every rejection and its message is zod's. Mirrors the schemas field by field;
 * test/api/asyncOperationFastPath.test.ts checks that the two agree on the generated corpus and that
 * the shapes match zod's.
 */
export function parseAsyncOperationFast(raw: unknown): AsyncOperation | undefined {
  if (!isObject(raw) || typeof raw.type !== "string") return undefined;
  const { type } = raw;
  if (!isAsyncOperationType(type)) return unknownOperation(raw, type);
  const variant = VARIANTS.get(type);
  if (variant === undefined) return undefined;
  const copy = readObject(raw, variant);
  return copy === FAIL ? undefined : (copy as AsyncOperation);
}

/** An operation of a `type` this code does not know, as the schema's transform makes it. */
function unknownOperation(raw: Record<string, unknown>, type: string): AsyncOperation | undefined {
  const body: Record<string, unknown> = { type };
  for (const key of Object.keys(raw)) {
    if (key === "__proto__") return undefined;
    if (key !== "type") body[key] = raw[key];
  }
  const { id, status } = body;
  return {
    kind: "unknown",
    type,
    id: typeof id === "string" ? id : undefined,
    status: typeof status === "string" ? status : undefined,
    raw: body,
  };
}

/**
 * AsyncOperationSchema.safeParse, answered by the fast path when it can: the same result for every
 * body (the same value, or zod's error for a body zod refuses).
 */
export function parseAsyncOperation(raw: unknown): ReturnType<typeof AsyncOperationSchema.safeParse> {
  const fast = parseAsyncOperationFast(raw);
  return fast === undefined ? AsyncOperationSchema.safeParse(raw) : { success: true, data: fast };
}
