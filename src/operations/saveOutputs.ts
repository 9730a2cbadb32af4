import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { ZooUsageError } from "../errors.js";
import type { OutputFile } from "./operationView.js";

/**
 * Writes output files under `dir`. Names come from the API, so they are confined to `dir`: an
 * absolute path or `..` would let a response write anywhere. Each file appears atomically.
 */
export async function saveOutputs(dir: string, files: readonly OutputFile[]): Promise<string[]> {
  const root = path.resolve(dir);
  const written: string[] = [];
  for (const file of files) {
    const target = path.resolve(root, file.name.replace(/^[/\\]+/, ""));
    if (target !== root && !target.startsWith(`${root}${path.sep}`)) {
      throw new ZooUsageError({
        code: "api.invalid_response",
        message: `Refusing to write output ${JSON.stringify(file.name)}: it points outside ${root}`,
        hint: "The operation's output names are unusual; inspect them with --json.",
      });
    }
    await mkdir(path.dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.partial`;
    await writeFile(temporary, file.content);
    await rename(temporary, target);
    written.push(target);
  }
  return written;
}
