import { z } from "zod";

// Mirrors of the spec's string enums (components.schemas.<Name>, each a `oneOf` of single-value `enum`s).
// The value order is the spec's. Each enum exports the values (for checks and tests), the schema and the type;
// test/api/schemaDrift.test.ts fails when a list stops matching the spec.

/** The Request Method (VERB). `EXTENSION` is the spec's catch-all for any other verb, so the list is closed. */
export const METHODS = [
  "OPTIONS",
  "GET",
  "POST",
  "PUT",
  "DELETE",
  "HEAD",
  "TRACE",
  "CONNECT",
  "PATCH",
  "EXTENSION",
] as const;
export const MethodSchema = z.enum(METHODS);
export type Method = z.infer<typeof MethodSchema>;

/** The status of an async API call. */
export const API_CALL_STATUSES = ["queued", "uploaded", "in_progress", "completed", "failed"] as const;
export const ApiCallStatusSchema = z.enum(API_CALL_STATUSES);
export type ApiCallStatus = z.infer<typeof ApiCallStatusSchema>;

/** The valid types of output file formats. */
export const FILE_EXPORT_FORMATS = ["fbx", "glb", "gltf", "obj", "ply", "step", "stl"] as const;
export const FileExportFormatSchema = z.enum(FILE_EXPORT_FORMATS);
export type FileExportFormat = z.infer<typeof FileExportFormatSchema>;

/** The valid types of source file formats. */
export const FILE_IMPORT_FORMATS = [
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
] as const;
export const FileImportFormatSchema = z.enum(FILE_IMPORT_FORMATS);
export type FileImportFormat = z.infer<typeof FileImportFormatSchema>;

/** The valid types of length units. */
export const UNIT_LENGTHS = ["cm", "ft", "in", "m", "mm", "yd"] as const;
export const UnitLengthSchema = z.enum(UNIT_LENGTHS);
export type UnitLength = z.infer<typeof UnitLengthSchema>;

/** The valid types for density units. */
export const UNIT_DENSITIES = ["lb:ft3", "kg:m3"] as const;
export const UnitDensitySchema = z.enum(UNIT_DENSITIES);
export type UnitDensity = z.infer<typeof UnitDensitySchema>;

/** The valid types of mass units. */
export const UNIT_MASSES = ["g", "kg", "lb"] as const;
export const UnitMassSchema = z.enum(UNIT_MASSES);
export type UnitMass = z.infer<typeof UnitMassSchema>;

/** The valid types of volume units. */
export const UNIT_VOLUMES = ["mm3", "cm3", "ft3", "in3", "m3", "yd3", "usfloz", "usgal", "l", "ml"] as const;
export const UnitVolumeSchema = z.enum(UNIT_VOLUMES);
export type UnitVolume = z.infer<typeof UnitVolumeSchema>;

/** The valid types of area units. */
export const UNIT_AREAS = ["cm2", "dm2", "ft2", "in2", "km2", "m2", "mm2", "yd2"] as const;
export const UnitAreaSchema = z.enum(UNIT_AREAS);
export type UnitArea = z.infer<typeof UnitAreaSchema>;

/** Human feedback on an ML response. */
export const ML_FEEDBACKS = ["thumbs_up", "thumbs_down", "accepted", "rejected"] as const;
export const MlFeedbackSchema = z.enum(ML_FEEDBACKS);
export type MlFeedback = z.infer<typeof MlFeedbackSchema>;

/** A type of Text-to-CAD model. */
export const TEXT_TO_CAD_MODELS = ["cad", "kcl", "kcl_iteration"] as const;
export const TextToCadModelSchema = z.enum(TEXT_TO_CAD_MODELS);
export type TextToCadModel = z.infer<typeof TextToCadModelSchema>;

/** Co-ordinate axis specifier. */
export const AXES = ["y", "z"] as const;
export const AxisSchema = z.enum(AXES);
export type Axis = z.infer<typeof AxisSchema>;

/** Specifies the sign of a co-ordinate axis. */
export const DIRECTIONS = ["positive", "negative"] as const;
export const DirectionSchema = z.enum(DIRECTIONS);
export type Direction = z.infer<typeof DirectionSchema>;

/** Describes the storage format of an FBX file. */
export const FBX_STORAGES = ["ascii", "binary"] as const;
export const FbxStorageSchema = z.enum(FBX_STORAGES);
export type FbxStorage = z.infer<typeof FbxStorageSchema>;

/** Describes the presentation style of the glTF JSON. */
export const GLTF_PRESENTATIONS = ["compact", "pretty"] as const;
export const GltfPresentationSchema = z.enum(GLTF_PRESENTATIONS);
export type GltfPresentation = z.infer<typeof GltfPresentationSchema>;

/** Describes the storage format of a glTF 2.0 scene. */
export const GLTF_STORAGES = ["binary", "standard", "embedded"] as const;
export const GltfStorageSchema = z.enum(GLTF_STORAGES);
export type GltfStorage = z.infer<typeof GltfStorageSchema>;

/** The storage for the output PLY file. */
export const PLY_STORAGES = ["ascii", "binary_little_endian", "binary_big_endian"] as const;
export const PlyStorageSchema = z.enum(PLY_STORAGES);
export type PlyStorage = z.infer<typeof PlyStorageSchema>;

/** Describes the presentation style of the EXPRESS exchange format. */
export const STEP_PRESENTATIONS = ["compact", "pretty"] as const;
export const StepPresentationSchema = z.enum(STEP_PRESENTATIONS);
export type StepPresentation = z.infer<typeof StepPresentationSchema>;

/** Export storage. */
export const STL_STORAGES = ["ascii", "binary"] as const;
export const StlStorageSchema = z.enum(STL_STORAGES);
export type StlStorage = z.infer<typeof StlStorageSchema>;

/** After importing, how should this model's data be represented? */
export const STEP_IMPORT_TARGET_REPRESENTATIONS = ["mesh", "brep"] as const;
export const StepImportTargetRepresentationSchema = z.enum(STEP_IMPORT_TARGET_REPRESENTATIONS);
export type StepImportTargetRepresentation = z.infer<typeof StepImportTargetRepresentationSchema>;
