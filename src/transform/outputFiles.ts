import { decodedBase64Length } from "../api/outputSize.js";

/** One file of an operation's `outputs`, decoded. */
export interface OutputFile {
  name: string;
  /** Size of the file once decoded, in bytes. */
  bytes: number;
  content: Buffer;
}

/**
 * The files in `outputs`: base64 for every variant but the multi-file iteration, whose outputs are
 * plain text (spec: its `outputs` values have no `format: byte`).
 */
export function outputFiles(fields: Record<string, unknown>): OutputFile[] {
  const outputs = fields.outputs;
  if (outputs === null || typeof outputs !== "object") return [];
  const plainText = fields.type === "text_to_cad_multi_file_iteration";
  return Object.entries(outputs as Record<string, unknown>)
    .filter((entry): entry is [string, string] => typeof entry[1] === "string")
    .map(([name, value]) => {
      const content = plainText ? Buffer.from(value, "utf8") : Buffer.from(value, "base64");
      return { name, bytes: content.length, content };
    });
}

/** One file of an operation's `outputs`, measured only. */
export interface OutputSize {
  name: string;
  /** Size of the file once decoded, in bytes, as OutputFile.bytes. */
  bytes: number;
}

/**
 * The names and decoded sizes of the files in `outputs`, as outputFiles gives them, counted from
 * the text without decoding or copying it: the files are whole CAD models.
 */
export function outputSizes(fields: Record<string, unknown>): OutputSize[] {
  const outputs = fields.outputs;
  if (outputs === null || typeof outputs !== "object") return [];
  const plainText = fields.type === "text_to_cad_multi_file_iteration";
  const sizes: OutputSize[] = [];
  for (const [name, value] of Object.entries(outputs as Record<string, unknown>)) {
    if (typeof value !== "string") continue;
    sizes.push({ name, bytes: plainText ? Buffer.byteLength(value, "utf8") : decodedBase64Length(value) });
  }
  return sizes;
}
