import { CHRONO_TIME } from "./helpers.js";

/**
 * The parts of the spec's AsyncApiCallOutput the simulator must honour, copied from
 * components.schemas (required fields, allowed properties, enums). Kept by hand so the tests do not
 * depend on a file outside the repository.
 */
const COMMON = [
  "completed_at",
  "created_at",
  "error",
  "id",
  "started_at",
  "status",
  "type",
  "updated_at",
  "user_id",
];

export const VARIANTS: Record<string, { required: string[]; properties: string[] }> = {
  file_conversion: {
    required: ["created_at", "id", "output_format", "src_format", "status", "type", "updated_at", "user_id"],
    properties: [
      ...COMMON,
      "output_format",
      "output_format_options",
      "outputs",
      "src_format",
      "src_format_options",
    ],
  },
  file_center_of_mass: {
    required: ["created_at", "id", "output_unit", "src_format", "status", "type", "updated_at", "user_id"],
    properties: [...COMMON, "center_of_mass", "output_unit", "src_format"],
  },
  file_mass: {
    required: [
      "created_at",
      "id",
      "material_density_unit",
      "output_unit",
      "src_format",
      "status",
      "type",
      "updated_at",
      "user_id",
    ],
    properties: [...COMMON, "mass", "material_density", "material_density_unit", "output_unit", "src_format"],
  },
  file_volume: {
    required: ["created_at", "id", "output_unit", "src_format", "status", "type", "updated_at", "user_id"],
    properties: [...COMMON, "output_unit", "src_format", "volume"],
  },
  file_density: {
    required: [
      "created_at",
      "id",
      "material_mass_unit",
      "output_unit",
      "src_format",
      "status",
      "type",
      "updated_at",
      "user_id",
    ],
    properties: [...COMMON, "density", "material_mass", "material_mass_unit", "output_unit", "src_format"],
  },
  file_surface_area: {
    required: ["created_at", "id", "output_unit", "src_format", "status", "type", "updated_at", "user_id"],
    properties: [...COMMON, "output_unit", "src_format", "surface_area"],
  },
  text_to_cad: {
    required: [
      "conversation_id",
      "created_at",
      "id",
      "model",
      "model_version",
      "output_format",
      "prompt",
      "status",
      "type",
      "updated_at",
      "user_id",
    ],
    properties: [
      ...COMMON,
      "code",
      "conversation_id",
      "feedback",
      "kcl_version",
      "model",
      "model_version",
      "output_format",
      "outputs",
      "prompt",
    ],
  },
  text_to_cad_iteration: {
    required: [
      "code",
      "conversation_id",
      "created_at",
      "id",
      "model",
      "model_version",
      "original_source_code",
      "source_ranges",
      "status",
      "type",
      "updated_at",
      "user_id",
    ],
    properties: [
      ...COMMON,
      "code",
      "conversation_id",
      "feedback",
      "model",
      "model_version",
      "original_source_code",
      "prompt",
      "source_ranges",
    ],
  },
  text_to_cad_multi_file_iteration: {
    required: [
      "conversation_id",
      "created_at",
      "id",
      "model",
      "model_version",
      "source_ranges",
      "status",
      "type",
      "updated_at",
      "user_id",
    ],
    properties: [
      ...COMMON,
      "conversation_id",
      "feedback",
      "kcl_version",
      "model",
      "model_version",
      "outputs",
      "project_name",
      "prompt",
      "source_ranges",
    ],
  },
};

const ENUMS: Record<string, readonly string[]> = {
  status: ["queued", "uploaded", "in_progress", "completed", "failed"],
  src_format: [
    "acis",
    "catia",
    "creo",
    "fbx",
    "gltf",
    "inventor",
    "nx",
    "obj",
    "parasolid",
    "ply",
    "sldprt",
    "step",
    "stl",
  ],
  output_format: ["fbx", "glb", "gltf", "obj", "ply", "step", "stl"],
  model: ["cad", "kcl", "kcl_iteration"],
  feedback: ["thumbs_up", "thumbs_down", "accepted", "rejected"],
  material_density_unit: ["lb:ft3", "kg:m3"],
  material_mass_unit: ["g", "kg", "lb"],
};
const OUTPUT_UNITS: Record<string, readonly string[]> = {
  file_center_of_mass: ["cm", "ft", "in", "m", "mm", "yd"],
  file_mass: ["g", "kg", "lb"],
  file_volume: ["mm3", "cm3", "ft3", "in3", "m3", "yd3", "usfloz", "usgal", "l", "ml"],
  file_density: ["lb:ft3", "kg:m3"],
  file_surface_area: ["cm2", "dm2", "ft2", "in2", "km2", "m2", "mm2", "yd2"],
};

/** Problems of `op` against the spec, or [] when it is valid. */
export function operationProblems(op: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const variant = VARIANTS[String(op.type)];
  if (variant === undefined) return [`unknown type ${String(op.type)}`];
  for (const field of variant.required)
    if (op[field] === undefined || op[field] === null) problems.push(`missing ${field}`);
  for (const field of Object.keys(op))
    if (!variant.properties.includes(field)) problems.push(`unexpected ${field}`);
  for (const [field, allowed] of Object.entries(ENUMS)) {
    const value = op[field];
    if (value !== undefined && value !== null && !allowed.includes(String(value)))
      problems.push(`${field}=${String(value)}`);
  }
  const units = OUTPUT_UNITS[String(op.type)];
  if (units !== undefined && !units.includes(String(op.output_unit)))
    problems.push(`output_unit=${String(op.output_unit)}`);
  for (const field of ["created_at", "updated_at"])
    if (!CHRONO_TIME.test(String(op[field]))) problems.push(`${field} format`);
  for (const field of ["started_at", "completed_at"]) {
    if (op[field] !== null && !CHRONO_TIME.test(String(op[field]))) problems.push(`${field} format`);
  }
  if (op.status === "failed" && (typeof op.error !== "string" || op.error === ""))
    problems.push("failed without error");
  if (op.status !== "failed" && op.error !== null) problems.push("error on a non-failed operation");
  if (op.status === "completed" && op.completed_at === null) problems.push("completed without completed_at");
  if (Array.isArray(op.source_ranges)) {
    for (const range of op.source_ranges as Array<Record<string, unknown>>) {
      if (typeof range.prompt !== "string" || typeof range.range !== "object")
        problems.push("bad source range");
    }
  }
  return problems;
}
