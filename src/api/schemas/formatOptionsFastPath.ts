import {
  AXES,
  DIRECTIONS,
  FBX_STORAGES,
  GLTF_PRESENTATIONS,
  GLTF_STORAGES,
  PLY_STORAGES,
  STEP_IMPORT_TARGET_REPRESENTATIONS,
  STEP_PRESENTATIONS,
  STL_STORAGES,
  UNIT_LENGTHS,
} from "./enums.js";
import {
  boolean,
  count,
  dateTime,
  type FastShape,
  literal,
  may,
  must,
  nullable,
  object,
  oneOf,
  shape,
  string,
  union,
} from "./fastReaders.js";

// The option objects of a file conversion (formatOptions.ts) for the fast path, field by field and
// in the zod shapes' order; test/api/asyncOperationFastPath.test.ts compares them with zod's.

export const system = object(
  shape(
    must("forward", object(shape(must("axis", oneOf(AXES)), must("direction", oneOf(DIRECTIONS))))),
    must("up", object(shape(must("axis", oneOf(AXES)), must("direction", oneOf(DIRECTIONS))))),
  ),
);
export const unitLength = oneOf(UNIT_LENGTHS);

const selection = union({
  default_scene: shape(must("type", literal("default_scene"))),
  scene_by_index: shape(must("index", count), must("type", literal("scene_by_index"))),
  scene_by_name: shape(must("name", string), must("type", literal("scene_by_name"))),
  mesh_by_index: shape(must("index", count), must("type", literal("mesh_by_index"))),
  mesh_by_name: shape(must("name", string), must("type", literal("mesh_by_name"))),
});

export const OUTPUT_FORMAT_SHAPES: Record<string, FastShape> = {
  fbx: shape(
    may("created", nullable(dateTime)),
    must("storage", oneOf(FBX_STORAGES)),
    must("type", literal("fbx")),
  ),
  gltf: shape(
    must("presentation", oneOf(GLTF_PRESENTATIONS)),
    must("storage", oneOf(GLTF_STORAGES)),
    must("type", literal("gltf")),
  ),
  obj: shape(must("coords", system), must("type", literal("obj")), must("units", unitLength)),
  ply: shape(
    must("coords", system),
    must("selection", selection),
    must("storage", oneOf(PLY_STORAGES)),
    must("type", literal("ply")),
    must("units", unitLength),
  ),
  step: shape(
    may("coords", system),
    may("created", nullable(dateTime)),
    may("presentation", oneOf(STEP_PRESENTATIONS)),
    must("type", literal("step")),
    may("units", unitLength),
  ),
  stl: shape(
    must("coords", system),
    must("selection", selection),
    must("storage", oneOf(STL_STORAGES)),
    must("type", literal("stl")),
    must("units", unitLength),
  ),
};

const partFormat = (type: string) =>
  shape(may("coords", system), may("split_closed_faces", boolean), must("type", literal(type)));
const meshFormat = (type: string) =>
  shape(must("coords", system), must("type", literal(type)), must("units", unitLength));

export const INPUT_FORMAT_SHAPES: Record<string, FastShape> = {
  acis: partFormat("acis"),
  catia: partFormat("catia"),
  creo: partFormat("creo"),
  fbx: shape(must("type", literal("fbx"))),
  gltf: shape(must("type", literal("gltf"))),
  inventor: partFormat("inventor"),
  nx: partFormat("nx"),
  obj: meshFormat("obj"),
  parasolid: partFormat("parasolid"),
  ply: meshFormat("ply"),
  sldprt: partFormat("sldprt"),
  step: shape(
    may("coords", system),
    may("split_closed_faces", boolean),
    may("target_representation", oneOf(STEP_IMPORT_TARGET_REPRESENTATIONS)),
    must("type", literal("step")),
  ),
  stl: meshFormat("stl"),
};
