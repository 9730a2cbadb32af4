import { z } from "zod";
import {
  ApiCallStatusSchema,
  FileExportFormatSchema,
  FileImportFormatSchema,
  MlFeedbackSchema,
  TextToCadModelSchema,
  UnitAreaSchema,
  UnitDensitySchema,
  UnitLengthSchema,
  UnitMassSchema,
  UnitVolumeSchema,
} from "./enums.js";
import { InputFormat3dSchema, OutputFormat3dSchema } from "./formatOptions.js";
import { DateTimeSchema, UuidSchema } from "./primitives.js";

// GET /async/operations/{id} answers with components.schemas.AsyncApiCallOutput: a `oneOf` of 9 objects
// told apart by their `type` (the spec declares no formal discriminator). Every object is loose so that
// fields added by Zoo are kept.

/** components.schemas.Point3d (format float in the spec; read as a JSON number). */
export const Point3dSchema = z.looseObject({ x: z.number(), y: z.number(), z: z.number() });
export type Point3d = z.infer<typeof Point3dSchema>;

/** components.schemas.SourcePosition: `format: uint32, minimum: 0`. */
export const SourcePositionSchema = z.looseObject({ column: z.int().min(0), line: z.int().min(0) });
export type SourcePosition = z.infer<typeof SourcePositionSchema>;

/** components.schemas.SourceRange */
export const SourceRangeSchema = z.looseObject({ end: SourcePositionSchema, start: SourcePositionSchema });
export type SourceRange = z.infer<typeof SourceRangeSchema>;

/** components.schemas.SourceRangePrompt: `file` only applies to multi-file iterations, hence nullable. */
export const SourceRangePromptSchema = z.looseObject({
  file: z.string().nullable().optional(),
  prompt: z.string(),
  range: SourceRangeSchema,
});
export type SourceRangePrompt = z.infer<typeof SourceRangePromptSchema>;

/** Fields every variant has, with the spec's required/nullable flags (identical in all 9 variants). */
const commonFields = {
  completed_at: DateTimeSchema.nullable().optional(),
  created_at: DateTimeSchema,
  error: z.string().nullable().optional(),
  // The same id as the API call that created the operation.
  id: UuidSchema,
  started_at: DateTimeSchema.nullable().optional(),
  status: ApiCallStatusSchema,
  updated_at: DateTimeSchema,
  user_id: UuidSchema,
};

// Output files by path: base64 (`format: byte`) for conversions and text-to-CAD, plain KCL text for the
// multi-file iteration. Not decoded or checked here: they can be whole CAD files.
const OutputsSchema = z.record(z.string(), z.string());

/** Fields the three text-to-CAD variants share. */
const textToCadFields = {
  conversation_id: UuidSchema,
  feedback: MlFeedbackSchema.nullable().optional(),
  model: TextToCadModelSchema,
  model_version: z.string(),
};

export const FileConversionSchema = z.looseObject({
  ...commonFields,
  output_format: FileExportFormatSchema,
  output_format_options: OutputFormat3dSchema.nullable().optional(),
  outputs: OutputsSchema.optional(),
  src_format: FileImportFormatSchema,
  src_format_options: InputFormat3dSchema.nullable().optional(),
  type: z.literal("file_conversion"),
});
export type FileConversion = z.infer<typeof FileConversionSchema>;

export const FileCenterOfMassSchema = z.looseObject({
  ...commonFields,
  center_of_mass: Point3dSchema.nullable().optional(),
  output_unit: UnitLengthSchema,
  src_format: FileImportFormatSchema,
  type: z.literal("file_center_of_mass"),
});
export type FileCenterOfMass = z.infer<typeof FileCenterOfMassSchema>;

export const FileMassSchema = z.looseObject({
  ...commonFields,
  mass: z.number().nullable().optional(),
  // Optional with `default: 0.0` in the spec; not defaulted here, we keep what the API sent.
  material_density: z.number().optional(),
  material_density_unit: UnitDensitySchema,
  output_unit: UnitMassSchema,
  src_format: FileImportFormatSchema,
  type: z.literal("file_mass"),
});
export type FileMass = z.infer<typeof FileMassSchema>;

export const FileVolumeSchema = z.looseObject({
  ...commonFields,
  output_unit: UnitVolumeSchema,
  src_format: FileImportFormatSchema,
  type: z.literal("file_volume"),
  volume: z.number().nullable().optional(),
});
export type FileVolume = z.infer<typeof FileVolumeSchema>;

export const FileDensitySchema = z.looseObject({
  ...commonFields,
  density: z.number().nullable().optional(),
  // Optional with `default: 0.0` in the spec, like file_mass.material_density.
  material_mass: z.number().optional(),
  material_mass_unit: UnitMassSchema,
  output_unit: UnitDensitySchema,
  src_format: FileImportFormatSchema,
  type: z.literal("file_density"),
});
export type FileDensity = z.infer<typeof FileDensitySchema>;

export const FileSurfaceAreaSchema = z.looseObject({
  ...commonFields,
  output_unit: UnitAreaSchema,
  src_format: FileImportFormatSchema,
  surface_area: z.number().nullable().optional(),
  type: z.literal("file_surface_area"),
});
export type FileSurfaceArea = z.infer<typeof FileSurfaceAreaSchema>;

export const TextToCadSchema = z.looseObject({
  ...commonFields,
  ...textToCadFields,
  code: z.string().nullable().optional(),
  kcl_version: z.string().nullable().optional(),
  output_format: FileExportFormatSchema,
  outputs: OutputsSchema.optional(),
  prompt: z.string(),
  type: z.literal("text_to_cad"),
});
export type TextToCad = z.infer<typeof TextToCadSchema>;

export const TextToCadIterationSchema = z.looseObject({
  ...commonFields,
  ...textToCadFields,
  // Required here, unlike text_to_cad.code (spec).
  code: z.string(),
  original_source_code: z.string(),
  prompt: z.string().nullable().optional(),
  source_ranges: z.array(SourceRangePromptSchema),
  type: z.literal("text_to_cad_iteration"),
});
export type TextToCadIteration = z.infer<typeof TextToCadIterationSchema>;

export const TextToCadMultiFileIterationSchema = z.looseObject({
  ...commonFields,
  ...textToCadFields,
  kcl_version: z.string().nullable().optional(),
  outputs: OutputsSchema.optional(),
  project_name: z.string().nullable().optional(),
  prompt: z.string().nullable().optional(),
  source_ranges: z.array(SourceRangePromptSchema),
  type: z.literal("text_to_cad_multi_file_iteration"),
});
export type TextToCadMultiFileIteration = z.infer<typeof TextToCadMultiFileIterationSchema>;

/** The `type`s this code knows, in the spec's order. Zoo keeps adding more (the spec had 4 in 2022). */
export const ASYNC_OPERATION_TYPES = [
  "file_conversion",
  "file_center_of_mass",
  "file_mass",
  "file_volume",
  "file_density",
  "file_surface_area",
  "text_to_cad",
  "text_to_cad_iteration",
  "text_to_cad_multi_file_iteration",
] as const;
export type AsyncOperationType = (typeof ASYNC_OPERATION_TYPES)[number];

/** Only the 9 known variants; a body of another `type` fails here. */
export const KnownAsyncOperationSchema = z.discriminatedUnion("type", [
  FileConversionSchema,
  FileCenterOfMassSchema,
  FileMassSchema,
  FileVolumeSchema,
  FileDensitySchema,
  FileSurfaceAreaSchema,
  TextToCadSchema,
  TextToCadIterationSchema,
  TextToCadMultiFileIterationSchema,
]);
/**
 * A parsed known variant. `kind?: undefined` lets callers narrow with `op.kind === "unknown"`: the variants
 * are loose objects whose type carries a string index signature, and TypeScript only narrows on a property
 * every member declares. It is true because no variant in the spec has a `kind` field; the drift test
 * (every spec property must be in our shape) would flag one being added.
 */
export type KnownAsyncOperation = z.infer<typeof KnownAsyncOperationSchema> & { readonly kind?: undefined };

/** An operation of a `type` newer than this code: kept whole in `raw`, with the common fields picked out. */
export interface UnknownAsyncOperation {
  kind: "unknown";
  type: string;
  id?: string | undefined;
  status?: string | undefined;
  raw: Record<string, unknown>;
}

export type AsyncOperation = KnownAsyncOperation | UnknownAsyncOperation;

const KNOWN_TYPES: ReadonlySet<string> = new Set(ASYNC_OPERATION_TYPES);

export function isAsyncOperationType(type: string): type is AsyncOperationType {
  return KNOWN_TYPES.has(type);
}

/** Same as `op.kind === "unknown"`, for callers that prefer a type guard. */
export function isUnknownAsyncOperation(op: AsyncOperation): op is UnknownAsyncOperation {
  return op.kind === "unknown";
}

/**
 * Parses any GET /async/operations/{id} body. A known `type` must match its variant (issues keep their
 * paths, e.g. `output_format_options.storage`); an unknown `type` string becomes an UnknownAsyncOperation
 * instead of an error: Zoo adds types, and a new one must not fail the export. A body without a string
 * `type` is rejected.
 */
export const AsyncOperationSchema = z
  .looseObject({ type: z.string() })
  .transform((body, ctx): AsyncOperation => {
    if (!isAsyncOperationType(body.type)) {
      const { id, status } = body;
      return {
        kind: "unknown",
        type: body.type,
        id: typeof id === "string" ? id : undefined,
        status: typeof status === "string" ? status : undefined,
        raw: body,
      };
    }
    const parsed = KnownAsyncOperationSchema.safeParse(body);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: undefined });
    return z.NEVER;
  });
