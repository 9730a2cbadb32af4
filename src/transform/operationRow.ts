import { z } from "zod";
import type { MeasuredOutput } from "../api/outputSize.js";
import {
  AsyncOperationSchema,
  isRfc3339DateTime,
  isUnknownAsyncOperation,
  isUuid,
} from "../api/schemas/index.js";
import { toMicros } from "./apiCallRow.js";
import { inspectJson, MAX_RECORD_BYTES, storableText } from "./limits.js";
import { outputSizes } from "./outputFiles.js";

/**
 * Endpoint templates whose successful POST starts an async operation. From the spec: these paths
 * answer 201 with a FileConversion, FileCenterOfMass, FileMass, FileVolume, FileDensity or
 * FileSurfaceArea (variants of AsyncApiCallOutput). The text-to-CAD routes left the spec but stay in
 * histories (see LEGACY_PATHS in endpointTemplate.ts).
 */
export const OPERATION_STARTING_TEMPLATES: readonly string[] = [
  "/file/conversion",
  "/file/conversion/{src_format}/{output_format}",
  "/file/center-of-mass",
  "/file/mass",
  "/file/volume",
  "/file/density",
  "/file/surface-area",
  "/ai/text-to-cad/{output_format}",
  "/ml/text-to-cad/iteration",
  "/ml/text-to-cad/multi-file/iteration",
];

/** One async_operations row as the loader spools it (queue_ms/run_ms and call_created_at come in SQL). */
export interface OperationRow {
  id: string;
  fetch_status: "found" | "not_found" | "rejected";
  operation_type: string | null;
  status: string | null;
  user_id: string | null;
  created_at: string | null;
  started_at: string | null;
  completed_at: string | null;
  updated_at: string | null;
  error: string | null;
  src_format: string | null;
  output_format: string | null;
  output_unit: string | null;
  result_value: number | null;
  center_of_mass_x: number | null;
  center_of_mass_y: number | null;
  center_of_mass_z: number | null;
  material_density: number | null;
  material_density_unit: string | null;
  material_mass: number | null;
  material_mass_unit: string | null;
  model: string | null;
  model_version: string | null;
  kcl_version: string | null;
  feedback: string | null;
  prompt: string | null;
  conversation_id: string | null;
  project_name: string | null;
  output_count: number;
  output_bytes: number;
  outputs: { name: string; bytes: number }[];
  details: Record<string, unknown> | null;
  raw_unknown: Record<string, unknown> | null;
  fetched_at: string;
}

/** Fields that become columns (or are dropped, for outputs); everything else goes to `details`. */
const COLUMN_FIELDS = new Set([
  "id",
  "type",
  "status",
  "user_id",
  "created_at",
  "started_at",
  "completed_at",
  "updated_at",
  "error",
  "src_format",
  "output_format",
  "output_unit",
  "mass",
  "volume",
  "density",
  "surface_area",
  "center_of_mass",
  "material_density",
  "material_density_unit",
  "material_mass",
  "material_mass_unit",
  "model",
  "model_version",
  "kcl_version",
  "feedback",
  "prompt",
  "conversation_id",
  "project_name",
  "outputs",
]);

export type OperationResult = { ok: true; row: OperationRow } | { ok: false; reason: string };

/** Fields of an unknown `type` that fill typed columns: UUIDs and RFC 3339 times, when present. */
const UNKNOWN_TYPE_UUIDS = ["user_id", "conversation_id"] as const;
const UNKNOWN_TYPE_TIMES = ["created_at", "started_at", "completed_at", "updated_at"] as const;

/**
 * What about a body the schema accepted still cannot be stored: text no column can hold, and for an
 * unknown `type` (which the schema does not check) a field of a UUID or TIMESTAMPTZ column holding
 * something else. No problem when the body can be stored; `chars` bounds its size (inspectJson).
 */
function unstorable(
  fields: Record<string, unknown>,
  unknownType: boolean,
): { problem?: string; chars: number } {
  const { issue, chars } = inspectJson("", fields);
  if (issue !== undefined) return { problem: `✖ ${issue.problem}\n  → at ${storableText(issue.at)}`, chars };
  if (!unknownType) return { chars };
  for (const field of UNKNOWN_TYPE_UUIDS) {
    const value = fields[field];
    if (value !== undefined && value !== null && !(typeof value === "string" && isUuid(value)))
      return { problem: `✖ expected a UUID (8-4-4-4-12 hex digits)\n  → at ${field}`, chars };
  }
  for (const field of UNKNOWN_TYPE_TIMES) {
    const value = fields[field];
    if (value !== undefined && value !== null && !(typeof value === "string" && isRfc3339DateTime(value)))
      return {
        problem: `✖ expected an RFC 3339 date-time with a zone on a real calendar day\n  → at ${field}`,
        chars,
      };
  }
  return { chars };
}

/**
 * A row's JSON in UTF-8 bytes is at most this many times its body's `chars` (inspectJson), plus
 * ROW_OVERHEAD_BYTES: JSON escapes write a character in up to 6 bytes, and a value of the body
 * appears at most three times in the row (a column, `details` or `raw_unknown`, the output list).
 */
const ROW_BYTES_PER_CHAR = 18;
/** Column names, the id, times and sizes every row has, with room to spare. */
const ROW_OVERHEAD_BYTES = 64 * 1024;

/**
 * Validates a fetched body and maps it to a row; an unknown `type` is kept raw, not rejected. What
 * passes loads: the checks go as far as the columns need (unstorable, and the row's size).
 */
export function transformOperation(
  id: string,
  body: unknown,
  fetchedAt: string,
  measured?: ReadonlyMap<string, MeasuredOutput>,
): OperationResult {
  const result = operationRow(id, body, fetchedAt, measured);
  if (!result.ok) return result;
  // Serialising the row to measure it costs as much as the rest: only a large body needs it.
  if (result.chars * ROW_BYTES_PER_CHAR + ROW_OVERHEAD_BYTES < MAX_RECORD_BYTES)
    return { ok: true, row: result.row };
  const bytes = Buffer.byteLength(JSON.stringify(result.row));
  if (bytes > MAX_RECORD_BYTES)
    return {
      ok: false,
      reason: `✖ operation is ${bytes} bytes as a row, above the ${MAX_RECORD_BYTES}-byte limit on one JSON object the loader reads (DuckDB read_json maximum_object_size)`,
    };
  return { ok: true, row: result.row };
}

/**
 * Output names and sizes of a body whose output contents were left out while it was read
 * (OutputSkippingFilter): the names are the body's, the sizes were counted as the bytes passed,
 * as base64 or, for the multi-file iteration, as plain text (see outputSizes).
 */
function measuredFiles(
  fields: Record<string, unknown>,
  measured: ReadonlyMap<string, MeasuredOutput>,
): { name: string; bytes: number }[] {
  const outputs = fields.outputs;
  if (outputs === null || typeof outputs !== "object") return [];
  const plainText = fields.type === "text_to_cad_multi_file_iteration";
  return Object.entries(outputs as Record<string, unknown>)
    .filter((entry): entry is [string, string] => typeof entry[1] === "string")
    .map(([name]) => {
      const size = measured.get(name);
      return { name, bytes: size === undefined ? 0 : plainText ? size.textBytes : size.base64Bytes };
    });
}

function operationRow(
  id: string,
  body: unknown,
  fetchedAt: string,
  measured: ReadonlyMap<string, MeasuredOutput> | undefined,
): { ok: true; row: OperationRow; chars: number } | { ok: false; reason: string } {
  const parsed = AsyncOperationSchema.safeParse(body);
  if (!parsed.success) return { ok: false, reason: z.prettifyError(parsed.error) };
  const operation = parsed.data;
  const fields: Record<string, unknown> = isUnknownAsyncOperation(operation) ? operation.raw : operation;
  if (typeof fields.id === "string" && fields.id.toLowerCase() !== id.toLowerCase()) {
    return {
      ok: false,
      reason: `✖ operation id ${storableText(fields.id)} differs from the API call id ${id}\n  → at id`,
    };
  }
  const { problem, chars } = unstorable(fields, isUnknownAsyncOperation(operation));
  if (problem !== undefined) return { ok: false, reason: problem };
  const files = measured === undefined ? outputSizes(fields) : measuredFiles(fields, measured);
  const unknown = isUnknownAsyncOperation(operation);
  const sizedBody = files.length > 0 ? { ...fields, outputs: files } : fields;
  const details: Record<string, unknown> = {};
  if (!unknown) {
    for (const [key, value] of Object.entries(fields)) {
      if (!COLUMN_FIELDS.has(key) && value !== undefined && value !== null) details[key] = value;
    }
  }
  const center = fields.center_of_mass as { x?: unknown; y?: unknown; z?: unknown } | null | undefined;
  return {
    ok: true,
    chars,
    row: {
      id,
      fetch_status: "found",
      operation_type: String(fields.type),
      status: text(fields.status),
      user_id: text(fields.user_id),
      created_at: time(fields.created_at),
      started_at: time(fields.started_at),
      completed_at: time(fields.completed_at),
      updated_at: time(fields.updated_at),
      error: text(fields.error),
      src_format: text(fields.src_format),
      output_format: text(fields.output_format),
      output_unit: text(fields.output_unit),
      result_value: number(fields.mass ?? fields.volume ?? fields.density ?? fields.surface_area),
      center_of_mass_x: number(center?.x),
      center_of_mass_y: number(center?.y),
      center_of_mass_z: number(center?.z),
      material_density: number(fields.material_density),
      material_density_unit: text(fields.material_density_unit),
      material_mass: number(fields.material_mass),
      material_mass_unit: text(fields.material_mass_unit),
      model: text(fields.model),
      model_version: text(fields.model_version),
      kcl_version: text(fields.kcl_version),
      feedback: text(fields.feedback),
      prompt: text(fields.prompt),
      conversation_id: text(fields.conversation_id),
      project_name: text(fields.project_name),
      output_count: files.length,
      output_bytes: files.reduce((sum, file) => sum + file.bytes, 0),
      outputs: files,
      details: Object.keys(details).length > 0 ? details : null,
      raw_unknown: unknown ? sizedBody : null,
      fetched_at: fetchedAt,
    },
  };
}

function text(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

/** As DuckDB stores it: microseconds, upper-case T and Z (toMicros). */
function time(value: unknown): string | null {
  return typeof value === "string" ? toMicros(value) : null;
}

function number(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
