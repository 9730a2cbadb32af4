import { hash32, Mulberry32 } from "./random.js";
import { SALT } from "./salts.js";

/**
 * Small deterministic stand-ins for the CAD files an operation returns in `outputs` (the spec: "the
 * converted files ..., base64 encoded. The key of the map is the path of the output file"). A few
 * hundred bytes to a few KB each: big enough that an exporter must not log or store them by
 * accident, small enough to serve fast.
 */
export function conversionOutputs(seed: number, i: number, format: string): Record<string, string> {
  const rng = new Mulberry32(hash32(seed, i, SALT.opFiles));
  const files: Record<string, string> = {};
  const count = 1 + (hash32(seed, i, SALT.fileBytes) % 3);
  const ext = format;
  files[`output.${ext}`] = fileBytes(format, rng).toString("base64");
  if (count >= 2) {
    if (format === "obj") files["output.mtl"] = Buffer.from(mtl(rng)).toString("base64");
    else if (format === "gltf")
      files["output.bin"] = randomBytes(rng, 200 + Math.floor(rng.next() * 800)).toString("base64");
    else files[`assembly/part_2.${ext}`] = fileBytes(format, rng).toString("base64");
  }
  if (count === 3) files[`assembly/part_3.${ext}`] = fileBytes(format, rng).toString("base64");
  return files;
}

/** Bytes of one fake file in `format` (a FileExportFormat value). */
export function fileBytes(format: string, rng: Mulberry32): Buffer {
  const target = Math.floor(300 * 12 ** rng.next()); // 300 B .. 3.6 KB
  switch (format) {
    case "obj":
      return Buffer.from(
        lines("# zoo simulator\no part\n", target, () => `v ${coord(rng)} ${coord(rng)} ${coord(rng)}\n`),
      );
    case "step":
      return Buffer.from(
        `${lines(
          "ISO-10303-21;\nHEADER;\nFILE_DESCRIPTION(('zoo simulator'),'2;1');\nENDSEC;\nDATA;\n",
          target,
          (n) => `#${n + 1}=CARTESIAN_POINT('',(${coord(rng)},${coord(rng)},${coord(rng)}));\n`,
        )}ENDSEC;\nEND-ISO-10303-21;\n`,
      );
    case "stl":
      return Buffer.from(
        `${lines("solid part\n", target, () => {
          const v = () => `      vertex ${coord(rng)} ${coord(rng)} ${coord(rng)}\n`;
          return `  facet normal 0 0 1\n    outer loop\n${v()}${v()}${v()}    endloop\n  endfacet\n`;
        })}endsolid part\n`,
      );
    case "ply":
      return Buffer.from(
        lines(
          "ply\nformat ascii 1.0\nelement vertex 64\nproperty float x\nproperty float y\nproperty float z\nend_header\n",
          target,
          () => `${coord(rng)} ${coord(rng)} ${coord(rng)}\n`,
        ),
      );
    case "gltf": {
      const data = randomBytes(rng, Math.max(64, target - 200)).toString("base64");
      const json = {
        asset: { version: "2.0", generator: "zoo-sim" },
        buffers: [{ byteLength: data.length, uri: `data:application/octet-stream;base64,${data}` }],
      };
      return Buffer.from(JSON.stringify(json));
    }
    case "glb":
      return Buffer.concat([Buffer.from([0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0]), randomBytes(rng, target)]);
    case "fbx":
      return Buffer.concat([Buffer.from("Kaydara FBX Binary  \0\x1a\0", "latin1"), randomBytes(rng, target)]);
    default:
      return randomBytes(rng, target);
  }
}

function lines(header: string, target: number, line: (n: number) => string): string {
  let text = header;
  for (let n = 0; text.length < target; n++) text += line(n);
  return text;
}

function coord(rng: Mulberry32): string {
  return ((rng.next() - 0.5) * 200).toFixed(4);
}

function mtl(rng: Mulberry32): string {
  return `newmtl default\nKd ${rng.next().toFixed(3)} ${rng.next().toFixed(3)} ${rng.next().toFixed(3)}\nNs 10.0\n`;
}

function randomBytes(rng: Mulberry32, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let k = 0; k < length; k++) bytes[k] = Math.floor(rng.next() * 256);
  return bytes;
}

/**
 * The operation's JSON with its first output file grown to `bytes` (decoded): real conversions and
 * text-to-CAD jobs return whole CAD files, megabytes each, and an exporter must read those without
 * holding them. The file is its own stand-in content followed by filler (zero bytes, written "A" in
 * base64; spaces in the multi-file iteration's plain text outputs). The filler is one shared buffer
 * sliced per reply, so that serving a big output costs a copy, not an encoding: the simulator must
 * not be what limits a benchmark of the client.
 */
export function operationJsonWithOutputBytes(
  operation: { type: string; outputs?: unknown },
  bytes: number,
): string | Buffer {
  const outputs = operation.outputs;
  if (outputs === null || typeof outputs !== "object") return JSON.stringify(operation);
  const [first] = Object.entries(outputs as Record<string, unknown>);
  if (first === undefined || typeof first[1] !== "string") return JSON.stringify(operation);
  const [name, content] = first as [string, string];
  const value = grownValue(content, bytes, operation.type === "text_to_cad_multi_file_iteration");
  if (value === undefined) return JSON.stringify(operation);
  const json = JSON.stringify({
    ...operation,
    outputs: { ...(outputs as Record<string, string>), [name]: GROWN },
  });
  const at = json.indexOf(GROWN_JSON);
  return Buffer.concat([
    Buffer.from(json.slice(0, at + 1)),
    ...value,
    Buffer.from(json.slice(at + GROWN_JSON.length - 1)),
  ]);
}

/** A placeholder no stand-in contains; its JSON form is found and replaced by the grown value. */
const GROWN = "\u0000grown\u0000";
const GROWN_JSON = JSON.stringify(GROWN);

/**
 * The grown value's JSON string content (without quotes) as buffers, or undefined when the stand-in
 * is already as big. Base64: the content padded with zero bytes to whole 3-byte groups, then "AAAA"
 * per 3 zero bytes and a padded last group, so that it decodes to exactly `bytes`.
 */
function grownValue(content: string, bytes: number, plainText: boolean): Buffer[] | undefined {
  if (plainText) {
    const own = Buffer.byteLength(content);
    if (own >= bytes) return undefined;
    return [Buffer.from(JSON.stringify(content).slice(1, -1)), filler(0x20, bytes - own)];
  }
  const decoded = Buffer.from(content, "base64");
  const padded = Buffer.concat([decoded, Buffer.alloc((3 - (decoded.length % 3)) % 3)]);
  if (padded.length > bytes) return undefined;
  const rest = bytes - padded.length;
  const tail = ["", "AA==", "AAA="][rest % 3] as string;
  return [Buffer.from(padded.toString("base64")), filler(0x41, Math.floor(rest / 3) * 4), Buffer.from(tail)];
}

const fillers = new Map<number, Buffer>();

/** `length` bytes of `byte`, a view of one buffer per byte value that grows to the largest asked. */
function filler(byte: number, length: number): Buffer {
  let buffer = fillers.get(byte);
  if (buffer === undefined || buffer.length < length) {
    buffer = Buffer.alloc(length, byte);
    fillers.set(byte, buffer);
  }
  return buffer.subarray(0, length);
}
