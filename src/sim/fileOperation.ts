import { fileParamsOf } from "./callFacts.js";
import { UNIT_LENGTH } from "./catalog.js";
import { conversionOutputs } from "./fakeFiles.js";
import { hash32, logBetween, pick, unit } from "./random.js";
import { SALT } from "./salts.js";
import type { OperationStatus, OperationType } from "./types.js";

/** spec System: the KittyCAD default (-Y forward, +Z up) and the glTF/OBJ convention (+Z, +Y). */
const COORDS = [
  { forward: { axis: "y", direction: "negative" }, up: { axis: "z", direction: "positive" } },
  { forward: { axis: "z", direction: "positive" }, up: { axis: "y", direction: "positive" } },
] as const;

/**
 * The variant-specific fields of the six file_* operations. Formats and units repeat the request
 * (path or query string) of the call; results are set only once the operation completed.
 */
export function fileOperationFields(
  seed: number,
  i: number,
  type: OperationType,
  status: OperationStatus,
): Record<string, unknown> {
  const p = fileParamsOf(seed, i, type);
  const done = status === "completed";
  const measure = (min: number, max: number) =>
    done ? Math.round(logBetween(seed, i, SALT.opResult, min, max) * 10_000) / 10_000 : null;
  switch (type) {
    case "file_conversion":
      return {
        src_format: p.srcFormat,
        output_format: p.outputFormat,
        src_format_options:
          unit(seed, i, SALT.opSrcOptions) < 0.5 ? null : inputOptions(seed, i, p.srcFormat),
        output_format_options:
          unit(seed, i, SALT.opOutOptions) < 0.5 ? null : outputOptions(seed, i, p.outputFormat),
        outputs: done ? conversionOutputs(seed, i, p.outputFormat) : {},
      };
    case "file_mass":
      return {
        src_format: p.srcFormat,
        output_unit: p.outputUnit,
        material_density: p.materialDensity,
        material_density_unit: p.materialDensityUnit,
        mass: measure(0.001, 5000),
      };
    case "file_density":
      return {
        src_format: p.srcFormat,
        output_unit: p.outputUnit,
        material_mass: p.materialMass,
        material_mass_unit: p.materialMassUnit,
        density: measure(0.1, 20_000),
      };
    case "file_volume":
      return { src_format: p.srcFormat, output_unit: p.outputUnit, volume: measure(0.001, 100_000) };
    case "file_surface_area":
      return { src_format: p.srcFormat, output_unit: p.outputUnit, surface_area: measure(0.01, 100_000) };
    default: {
      const axis = (salt: number) => Math.round((unit(seed, i, salt) - 0.5) * 2_000_000) / 10_000;
      return {
        src_format: p.srcFormat,
        output_unit: p.outputUnit,
        center_of_mass: done
          ? { x: axis(SALT.opResult), y: axis(SALT.opResult + 1), z: axis(SALT.opResult + 2) }
          : null,
      };
    }
  }
}

/** An InputFormat3d variant for `format` (spec: components.schemas.InputFormat3d). */
function inputOptions(seed: number, i: number, format: string): Record<string, unknown> {
  const coords = pick(COORDS, seed, i, SALT.opCoords);
  const units = pick(UNIT_LENGTH, seed, i, SALT.opCoords + 1);
  switch (format) {
    case "obj":
    case "ply":
    case "stl":
      return { type: format, coords, units };
    case "fbx":
    case "gltf":
      return { type: format };
    case "step":
      return {
        type: format,
        coords,
        split_closed_faces: (hash32(seed, i, SALT.opSrcOptions) & 2) !== 0,
        target_representation: hash32(seed, i, SALT.opSrcOptions) & 4 ? "brep" : "mesh",
      };
    default:
      return { type: format, coords, split_closed_faces: (hash32(seed, i, SALT.opSrcOptions) & 2) !== 0 };
  }
}

/**
 * An OutputFormat3d variant for `format` (spec: components.schemas.OutputFormat3d). The spec has no
 * glb variant: binary glTF is the gltf variant with storage "binary".
 */
function outputOptions(seed: number, i: number, format: string): Record<string, unknown> {
  const coords = pick(COORDS, seed, i, SALT.opCoords + 2);
  const units = pick(UNIT_LENGTH, seed, i, SALT.opCoords + 3);
  const bits = hash32(seed, i, SALT.opStorage);
  const selection = { type: "default_scene" };
  switch (format) {
    case "fbx":
      return { type: "fbx", storage: bits & 1 ? "ascii" : "binary", created: null };
    case "glb":
      return { type: "gltf", storage: "binary", presentation: "compact" };
    case "gltf":
      return {
        type: "gltf",
        storage: bits & 1 ? "standard" : "embedded",
        presentation: bits & 2 ? "compact" : "pretty",
      };
    case "obj":
      return { type: "obj", coords, units };
    case "ply": {
      const storage = ["ascii", "binary_little_endian", "binary_big_endian"][bits % 3];
      return { type: "ply", coords, selection, storage, units };
    }
    case "step":
      return { type: "step", coords, created: null, presentation: bits & 2 ? "compact" : "pretty", units };
    default:
      return { type: "stl", coords, selection, storage: bits & 1 ? "ascii" : "binary", units };
  }
}
