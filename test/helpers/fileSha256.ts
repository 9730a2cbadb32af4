import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";

/** The SHA-256 of a file's bytes, hex: what "left as it was" compares. */
export async function fileSha256(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
}
