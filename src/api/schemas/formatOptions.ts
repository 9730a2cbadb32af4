import { z } from "zod";
import {
  AxisSchema,
  DirectionSchema,
  FbxStorageSchema,
  GltfPresentationSchema,
  GltfStorageSchema,
  PlyStorageSchema,
  StepImportTargetRepresentationSchema,
  StepPresentationSchema,
  StlStorageSchema,
  UnitLengthSchema,
} from "./enums.js";
import { DateTimeSchema } from "./primitives.js";

// The option objects a file conversion echoes back (AsyncApiCallOutput file_conversion:
// output_format_options / src_format_options). All loose, like every body in api/: new options added by
// Zoo are kept. Spec defaults (e.g. STEP coords) are not applied: we record what the API said.

/** components.schemas.AxisDirectionPair */
export const AxisDirectionPairSchema = z.looseObject({ axis: AxisSchema, direction: DirectionSchema });
export type AxisDirectionPair = z.infer<typeof AxisDirectionPairSchema>;

/** components.schemas.System: a co-ordinate system (`up` orthogonal to `forward`, not checked here). */
export const SystemSchema = z.looseObject({ forward: AxisDirectionPairSchema, up: AxisDirectionPairSchema });
export type System = z.infer<typeof SystemSchema>;

// Selection indexes are `format: uint, minimum: 0` in the spec.
const SelectionIndexSchema = z.int().min(0);

/** components.schemas.Selection: which part of a scene a PLY or STL export visits. */
export const SelectionSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("default_scene") }),
  z.looseObject({ index: SelectionIndexSchema, type: z.literal("scene_by_index") }),
  z.looseObject({ name: z.string(), type: z.literal("scene_by_name") }),
  z.looseObject({ index: SelectionIndexSchema, type: z.literal("mesh_by_index") }),
  z.looseObject({ name: z.string(), type: z.literal("mesh_by_name") }),
]);
export type Selection = z.infer<typeof SelectionSchema>;

/** components.schemas.OutputFormat3d, one variant per export format (told apart by `type`). */
export const OutputFormat3dSchema = z.discriminatedUnion("type", [
  z.looseObject({
    created: DateTimeSchema.nullable().optional(),
    storage: FbxStorageSchema,
    type: z.literal("fbx"),
  }),
  z.looseObject({
    presentation: GltfPresentationSchema,
    storage: GltfStorageSchema,
    type: z.literal("gltf"),
  }),
  z.looseObject({ coords: SystemSchema, type: z.literal("obj"), units: UnitLengthSchema }),
  z.looseObject({
    coords: SystemSchema,
    selection: SelectionSchema,
    storage: PlyStorageSchema,
    type: z.literal("ply"),
    units: UnitLengthSchema,
  }),
  // STEP is the one export whose options are all optional in the spec (they have defaults).
  z.looseObject({
    coords: SystemSchema.optional(),
    created: DateTimeSchema.nullable().optional(),
    presentation: StepPresentationSchema.optional(),
    type: z.literal("step"),
    units: UnitLengthSchema.optional(),
  }),
  z.looseObject({
    coords: SystemSchema,
    selection: SelectionSchema,
    storage: StlStorageSchema,
    type: z.literal("stl"),
    units: UnitLengthSchema,
  }),
]);
export type OutputFormat3d = z.infer<typeof OutputFormat3dSchema>;

/** The B-rep part formats (ACIS, CATIA, Creo, Inventor, NX, Parasolid, SolidWorks) share one shape. */
function partFormat<T extends string>(type: T) {
  return z.looseObject({
    coords: SystemSchema.optional(),
    split_closed_faces: z.boolean().optional(),
    type: z.literal(type),
  });
}

/** Mesh formats where the spec requires the co-ordinate system and length unit. */
function meshFormat<T extends string>(type: T) {
  return z.looseObject({ coords: SystemSchema, type: z.literal(type), units: UnitLengthSchema });
}

/** components.schemas.InputFormat3d, one variant per import format (told apart by `type`). */
export const InputFormat3dSchema = z.discriminatedUnion("type", [
  partFormat("acis"),
  partFormat("catia"),
  partFormat("creo"),
  z.looseObject({ type: z.literal("fbx") }),
  z.looseObject({ type: z.literal("gltf") }),
  partFormat("inventor"),
  partFormat("nx"),
  meshFormat("obj"),
  partFormat("parasolid"),
  meshFormat("ply"),
  partFormat("sldprt"),
  z.looseObject({
    coords: SystemSchema.optional(),
    split_closed_faces: z.boolean().optional(),
    target_representation: StepImportTargetRepresentationSchema.optional(),
    type: z.literal("step"),
  }),
  meshFormat("stl"),
]);
export type InputFormat3d = z.infer<typeof InputFormat3dSchema>;
