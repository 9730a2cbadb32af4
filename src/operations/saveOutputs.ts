import { randomBytes } from "node:crypto";
import { lstat, mkdir, realpath, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ZooUsageError } from "../errors.js";
import { removeOrphanedTemporaries } from "../load/orphanedTemporaries.js";
import { asStorageError } from "../load/storageError.js";
import type { OutputFile } from "../transform/outputFiles.js";

/** A file being written: `.<name>.<pid>.<random>.partial`, beside its final name. */
const TEMPORARY = /^\..+\.(\d+)\.[0-9a-f]+\.partial$/;

export interface SavedOutputs {
  /** Absolute paths of the files written. */
  written: string[];
  /** Outputs not written, with why. */
  refused: { name: string; reason: string }[];
}

/**
 * Writes output files under `dir`. Names come from the API, so each is checked before anything is
 * written: a relative path of plain segments ("part.step", "parts/bracket.kcl": the multi-file
 * iteration's names have folders), nothing empty, ".", "..", absolute, with a backslash or a NUL.
 * Nothing is written through a symlink, even one inside `dir`: folders are created one level at a
 * time and each must be a real folder, and a file appears by renaming a temporary created with
 * O_EXCL (which fails on a symlink) over its name. Each file appears atomically. A refused name does
 * not stop the others.
 */
export async function saveOutputs(dir: string, files: readonly OutputFile[]): Promise<SavedOutputs> {
  await mkdir(dir, { recursive: true }).catch((error: unknown) => {
    throw asStorageError(error, `the folder ${dir}`);
  });
  const root = await realpath(dir);
  const cleaned = new Set<string>();
  const saved: SavedOutputs = { written: [], refused: [] };
  for (const file of files) {
    const segments = file.name.split("/");
    const problem = nameProblem(file.name) ?? (await folderProblem(root, segments.slice(0, -1)));
    if (problem !== undefined) {
      saved.refused.push({ name: file.name, reason: problem });
      continue;
    }
    const target = path.join(root, ...segments);
    const existing = await lstat(target).catch(() => undefined);
    if (existing !== undefined && !existing.isFile()) {
      saved.refused.push({
        name: file.name,
        reason: `${target} exists and is ${existing.isSymbolicLink() ? "a symlink" : "not a file"}`,
      });
      continue;
    }
    const folder = path.dirname(target);
    if (!cleaned.has(folder)) {
      cleaned.add(folder);
      await removeOrphanedTemporaries(folder, TEMPORARY);
    }
    await writeAtomically(target, file.content);
    saved.written.push(target);
  }
  return saved;
}

/** Why an output name cannot be a file under the folder, or undefined when it can. */
export function nameProblem(name: string): string | undefined {
  if (name === "") return "the name is empty";
  if (name.includes("\0")) return "the name contains a NUL character";
  if (name.includes("\\")) return "the name contains a backslash";
  if (name.startsWith("/")) return "the name is an absolute path";
  for (const segment of name.split("/")) {
    if (segment === "") return "the name has an empty path segment";
    if (segment === "." || segment === "..") return `the name has a "${segment}" path segment`;
  }
  return undefined;
}

/** Creates the folders of a name one level at a time; why not, when one is a symlink or a file. */
async function folderProblem(root: string, folders: readonly string[]): Promise<string | undefined> {
  let current = root;
  for (const folder of folders) {
    current = path.join(current, folder);
    let stats = await lstat(current).catch(() => undefined);
    if (stats === undefined) {
      await mkdir(current).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw asStorageError(error, current);
      });
      stats = await lstat(current);
    }
    if (stats.isSymbolicLink()) return `${current} is a symlink`;
    if (!stats.isDirectory()) return `${current} is not a folder`;
  }
  return undefined;
}

async function writeAtomically(target: string, content: Buffer): Promise<void> {
  const temporary = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.partial`,
  );
  try {
    // "wx": O_CREAT | O_EXCL, which never follows a symlink at the name.
    await writeFile(temporary, content, { flag: "wx" });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw asStorageError(error, target);
  }
}

/** The error for outputs that were refused, after the others were saved. */
export function refusedOutputsError(dir: string, refused: SavedOutputs["refused"]): ZooUsageError {
  const list = refused.map(({ name, reason }) => `${JSON.stringify(name)} (${reason})`).join(", ");
  return new ZooUsageError({
    code: "api.invalid_response",
    message: `Refused to save ${refused.length} output file(s) in ${dir}: ${list}`,
    hint: "The operation's output names would write outside the folder or through a link; the other outputs were saved. Inspect the names with --json.",
  });
}
