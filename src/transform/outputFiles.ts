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
