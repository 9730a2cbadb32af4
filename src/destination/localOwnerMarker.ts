import { link, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { temporaryBeside } from "../load/orphanedTemporaries.js";
import { asStorageError } from "../load/storageError.js";
import { OWNER_FILE, type OwnerMarker, ownerFileError, parseOwner } from "./datasetOwner.js";

/**
 * The owner marker of a local --out: the file `<dir>/_zoo_usage_owner.json`. It is created by
 * writing a temporary beside it and linking it in, which fails if the file appeared meanwhile: of
 * two claims at once, one wins.
 */
export function localOwnerMarker(outDir: string): OwnerMarker {
  const file = path.join(outDir, OWNER_FILE);
  return {
    dataset: outDir,
    location: file,
    async read() {
      let text: string;
      try {
        text = await readFile(file, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw ownerFileError(file, (error as Error).message, error);
      }
      return parseOwner(text, file);
    },
    async create(text) {
      const temporary = await writeTemporary(file, text);
      try {
        await link(temporary, file);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw asStorageError(error, `the dataset's owner file ${file}`);
      } finally {
        await rm(temporary, { force: true });
      }
    },
    async replace(text) {
      const temporary = await writeTemporary(file, text);
      try {
        await rename(temporary, file);
      } catch (error) {
        await rm(temporary, { force: true });
        throw asStorageError(error, `the dataset's owner file ${file}`);
      }
    },
    async remove() {
      await rm(file, { force: true });
    },
  };
}

async function writeTemporary(file: string, text: string): Promise<string> {
  const temporary = temporaryBeside(file);
  try {
    await writeFile(temporary, text, { flag: "wx" });
  } catch (error) {
    await rm(temporary, { force: true });
    throw asStorageError(error, `the dataset's owner file ${file}`);
  }
  return temporary;
}
