import {
  FILE_EXPORT_FORMATS,
  FILE_IMPORT_FORMATS,
  UNIT_AREA,
  UNIT_DENSITY,
  UNIT_LENGTH,
  UNIT_MASS,
  UNIT_VOLUME,
} from "./catalog.js";
import { derivedUuid } from "./identity.js";
import { hash32, pick, unit, weightedIndex } from "./random.js";
import { SALT } from "./salts.js";
import type { OperationType } from "./types.js";

/** One kind of request a user makes. Weights are relative shares of the call stream. */
export interface EndpointKind {
  readonly name: string;
  readonly weight: number;
  readonly method: string;
  /** The async operation a 2xx call of this kind starts (same id as the call), if any. */
  readonly operation: OperationType | null;
  readonly okStatus: number;
  /** Run time range in milliseconds, drawn log-uniformly. */
  readonly runMs: readonly [number, number];
}

/**
 * The mix of endpoints. Paths are the spec's `paths` templates, except the text-to-cad POSTs, which
 * are legacy routes no longer in the current spec: old records keep them, and an exporter that maps
 * endpoints to templates has to fall back for them (a record's `endpoint` is the concrete path).
 */
export const ENDPOINT_KINDS: readonly EndpointKind[] = [
  {
    name: "file_conversion",
    weight: 36,
    method: "POST",
    operation: "file_conversion",
    okStatus: 201,
    runMs: [200, 8000],
  },
  {
    name: "file_mass",
    weight: 3,
    method: "POST",
    operation: "file_mass",
    okStatus: 201,
    runMs: [300, 20000],
  },
  {
    name: "file_volume",
    weight: 3,
    method: "POST",
    operation: "file_volume",
    okStatus: 201,
    runMs: [300, 20000],
  },
  {
    name: "file_density",
    weight: 3,
    method: "POST",
    operation: "file_density",
    okStatus: 201,
    runMs: [300, 20000],
  },
  {
    name: "file_surface_area",
    weight: 3,
    method: "POST",
    operation: "file_surface_area",
    okStatus: 201,
    runMs: [300, 20000],
  },
  {
    name: "file_center_of_mass",
    weight: 3,
    method: "POST",
    operation: "file_center_of_mass",
    okStatus: 201,
    runMs: [300, 20000],
  },
  {
    name: "text_to_cad",
    weight: 3,
    method: "POST",
    operation: "text_to_cad",
    okStatus: 201,
    runMs: [100, 2000],
  },
  {
    name: "text_to_cad_iteration",
    weight: 2,
    method: "POST",
    operation: "text_to_cad_iteration",
    okStatus: 201,
    runMs: [100, 2000],
  },
  {
    name: "text_to_cad_multi_file_iteration",
    weight: 2,
    method: "POST",
    operation: "text_to_cad_multi_file_iteration",
    okStatus: 201,
    runMs: [100, 3000],
  },
  { name: "async_operation", weight: 14, method: "GET", operation: null, okStatus: 200, runMs: [5, 50] },
  { name: "user", weight: 5, method: "GET", operation: null, okStatus: 200, runMs: [5, 60] },
  { name: "user_api_calls", weight: 3, method: "GET", operation: null, okStatus: 200, runMs: [20, 400] },
  { name: "user_api_tokens", weight: 2, method: "GET", operation: null, okStatus: 200, runMs: [5, 80] },
  { name: "ping", weight: 3, method: "GET", operation: null, okStatus: 200, runMs: [0.5, 5] },
  { name: "unit_conversion", weight: 2, method: "GET", operation: null, okStatus: 200, runMs: [1, 10] },
  // POST /file/execute/{lang} (create_file_execution) answers 201 in the spec.
  { name: "execute_python", weight: 2, method: "POST", operation: null, okStatus: 201, runMs: [1000, 60000] },
  // A websocket session: the record is written when the upgrade succeeds (101) and lasts minutes to hours.
  {
    name: "ws_modeling",
    weight: 5,
    method: "GET",
    operation: null,
    okStatus: 101,
    runMs: [30_000, 10_800_000],
  },
  { name: "preflight", weight: 3, method: "OPTIONS", operation: null, okStatus: 204, runMs: [0.1, 2] },
  { name: "delete_api_token", weight: 0.5, method: "DELETE", operation: null, okStatus: 204, runMs: [5, 40] },
  { name: "put_user", weight: 0.5, method: "PUT", operation: null, okStatus: 200, runMs: [5, 60] },
];
const KIND_WEIGHTS = ENDPOINT_KINDS.map((k) => k.weight);
const KIND_TOTAL = KIND_WEIGHTS.reduce((a, b) => a + b, 0);
const ERROR_STATUSES = [400, 400, 400, 401, 404, 404, 429, 500] as const;

export function kindOf(seed: number, i: number): EndpointKind {
  const kind = ENDPOINT_KINDS[weightedIndex(KIND_WEIGHTS, KIND_TOTAL, unit(seed, i, SALT.kind))];
  if (kind === undefined) throw new Error("unreachable: endpoint kind table is empty");
  return kind;
}

/** Mostly the kind's success status; ~5% client/server errors; ~0.5% null (the spec allows it). */
export function statusCodeOf(seed: number, i: number, kind: EndpointKind): number | null {
  const u = unit(seed, i, SALT.status);
  if (u < 0.005) return null;
  if (u < 0.055) return pick(ERROR_STATUSES, seed, i, SALT.statusPick);
  return kind.okStatus;
}

/** The operation call i started, if any: only successful POSTs of the async kinds start one. */
export function operationTypeOf(seed: number, i: number): OperationType | null {
  const kind = kindOf(seed, i);
  if (kind.operation === null) return null;
  const status = statusCodeOf(seed, i, kind);
  return status !== null && status >= 200 && status < 300 ? kind.operation : null;
}

/** Request parameters of the file endpoints; the operation repeats them, so both read them here. */
export interface FileParams {
  srcFormat: string;
  outputFormat: string;
  outputUnit: string;
  materialDensity: number;
  materialDensityUnit: string;
  materialMass: number;
  materialMassUnit: string;
}

export function fileParamsOf(seed: number, i: number, kindName: string): FileParams {
  const srcFormat = pick(FILE_IMPORT_FORMATS, seed, i, SALT.srcFormat);
  let outputFormat = pick(FILE_EXPORT_FORMATS, seed, i, SALT.outFormat);
  if (outputFormat === srcFormat) outputFormat = srcFormat === "step" ? "stl" : "step";
  const units: Record<string, readonly string[]> = {
    file_mass: UNIT_MASS,
    file_volume: UNIT_VOLUME,
    file_density: UNIT_DENSITY,
    file_surface_area: UNIT_AREA,
    file_center_of_mass: UNIT_LENGTH,
  };
  return {
    srcFormat,
    outputFormat,
    outputUnit: pick(units[kindName] ?? UNIT_LENGTH, seed, i, SALT.outputUnit),
    materialDensity: ((hash32(seed, i, SALT.material) % 19_900) + 100) / 1000,
    materialDensityUnit: pick(UNIT_DENSITY, seed, i, SALT.materialUnit),
    materialMass: ((hash32(seed, i, SALT.material + 1) % 99_900) + 100) / 100,
    materialMassUnit: pick(UNIT_MASS, seed, i, SALT.materialUnit + 1),
  };
}

export interface RequestLine {
  endpoint: string;
  query: string;
}

/**
 * The concrete path and query string of call i. `earlierOperationId` finds the id a polling call
 * (GET /async/operations/{id}) asks about.
 */
export function requestOf(
  seed: number,
  i: number,
  kind: EndpointKind,
  earlierOperationId: (i: number) => string,
): RequestLine {
  const variant = hash32(seed, i, SALT.queryVariant);
  switch (kind.name) {
    case "file_conversion": {
      // Two routes start a conversion: the current POST /file/conversion (create_file_conversion_options,
      // formats in the multipart body) and the older /file/conversion/{src_format}/{output_format}.
      if (variant & 2) return { endpoint: "/file/conversion", query: "" };
      const p = fileParamsOf(seed, i, kind.name);
      return { endpoint: `/file/conversion/${p.srcFormat}/${p.outputFormat}`, query: "" };
    }
    case "file_mass": {
      const p = fileParamsOf(seed, i, kind.name);
      const query = `output_unit=${p.outputUnit}&material_density=${p.materialDensity}&material_density_unit=${p.materialDensityUnit}&src_format=${p.srcFormat}`;
      return { endpoint: "/file/mass", query };
    }
    case "file_density": {
      const p = fileParamsOf(seed, i, kind.name);
      const query = `output_unit=${p.outputUnit}&material_mass=${p.materialMass}&material_mass_unit=${p.materialMassUnit}&src_format=${p.srcFormat}`;
      return { endpoint: "/file/density", query };
    }
    case "file_volume":
    case "file_surface_area":
    case "file_center_of_mass": {
      const p = fileParamsOf(seed, i, kind.name);
      const path = `/file/${kind.name.slice(5).replaceAll("_", "-")}`;
      return { endpoint: path, query: `output_unit=${p.outputUnit}&src_format=${p.srcFormat}` };
    }
    case "text_to_cad": {
      const format = pick(FILE_EXPORT_FORMATS, seed, i, SALT.outFormat);
      return { endpoint: `/ai/text-to-cad/${format}`, query: variant & 1 ? "kcl=true" : "" };
    }
    case "text_to_cad_iteration":
      return { endpoint: "/ml/text-to-cad/iteration", query: "" };
    case "text_to_cad_multi_file_iteration":
      return { endpoint: "/ml/text-to-cad/multi-file/iteration", query: "" };
    case "async_operation":
      return { endpoint: `/async/operations/${earlierOperationId(i)}`, query: "" };
    case "user":
    case "put_user":
      return { endpoint: "/user", query: "" };
    case "user_api_calls": {
      const limit = [20, 50, 100, 1000][variant % 4];
      const sort = variant & 4 ? "created_at_ascending" : "created_at_descending";
      return { endpoint: "/user/api-calls", query: variant & 8 ? `limit=${limit}&sort_by=${sort}` : "" };
    }
    case "user_api_tokens":
      return {
        endpoint: "/user/api-tokens",
        query: variant & 1 ? "limit=20&sort_by=created_at_descending" : "",
      };
    case "ping":
      return { endpoint: "/ping", query: "" };
    case "unit_conversion":
      return { endpoint: "/unit/conversion/length/m/ft", query: `value=${(variant % 1000) / 10}` };
    case "execute_python":
      return { endpoint: "/file/execute/python", query: "" };
    case "ws_modeling":
      return {
        endpoint: "/ws/modeling/commands",
        query: "fps=60&unlocked_framerate=false&video_res_height=720&video_res_width=1280&webrtc=true",
      };
    case "preflight": {
      const p = fileParamsOf(seed, i, "file_conversion");
      const targets = [
        `/file/conversion/${p.srcFormat}/${p.outputFormat}`,
        "/file/mass",
        "/ai/text-to-cad/glb",
      ];
      return { endpoint: targets[variant % 3] ?? "/file/mass", query: "" };
    }
    case "delete_api_token":
      return { endpoint: `/user/api-tokens/${derivedUuid(seed, i, SALT.token)}`, query: "" };
    default:
      return { endpoint: "/", query: "" };
  }
}

/** ~5% of operations end `failed` (operationStateOf); the call that started one is not charged. */
export function operationFails(seed: number, i: number): boolean {
  return unit(seed, i, SALT.opFailed) < 0.05;
}

/**
 * A failed call, which Zoo does not charge (Zoo's pricing pages): answered with an error status,
 * or the async operation it started failed. A null status is unknown, not failed.
 */
export function callFailed(seed: number, i: number, kind: EndpointKind): boolean {
  const status = statusCodeOf(seed, i, kind);
  if (status !== null && status >= 400) return true;
  return operationTypeOf(seed, i) !== null && operationFails(seed, i);
}

/** Compute is billed; metadata calls (GET /user, polling an operation, listing calls) are free. */
export function isBillable(kind: EndpointKind): boolean {
  return kind.operation !== null || kind.name === "execute_python" || kind.name === "ws_modeling";
}
