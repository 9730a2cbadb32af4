import { randomBytes } from "node:crypto";
import { chmod, link, mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { ZooUsageError } from "../errors.js";

/** 32 bytes: a full-strength key for HMAC-SHA256 and AES-256-GCM. */
const KEY_BYTES = 32;

const SECRET_KEY_VARIABLE = "ZOO_USAGE_SECRET_KEY";

/** The secret key and where it came from: ZOO_USAGE_SECRET_KEY, or the path of the key file. */
export interface SecretKey {
  key: Buffer;
  source: string;
  /** Said when the key file can be read by other users than its owner. */
  warning?: string | undefined;
}

/**
 * The export's local secret: it keys the hash of the `token` column and seals stored page tokens.
 * It comes from ZOO_USAGE_SECRET_KEY (hex or base64, for setups where the key lives in a vault) or
 * from a key file beside the database, created once with mode 0600 (see warehouseKey.ts for what
 * a database made with another key does).
 */
export async function loadSecretKey(options: {
  fromEnv: string | undefined;
  keyFile: string;
}): Promise<SecretKey> {
  return (
    (await readSecretKey(options)) ?? { key: await createKeyFile(options.keyFile), source: options.keyFile }
  );
}

/** The key from ZOO_USAGE_SECRET_KEY or the key file; undefined when neither is there. */
export async function readSecretKey(options: {
  fromEnv: string | undefined;
  keyFile: string;
}): Promise<SecretKey | undefined> {
  if (options.fromEnv !== undefined && options.fromEnv.trim() !== "")
    return { key: decodeKey(options.fromEnv.trim(), SECRET_KEY_VARIABLE), source: SECRET_KEY_VARIABLE };
  let text: string;
  try {
    text = await readFile(options.keyFile, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw keyFileError(options.keyFile, error);
  }
  const key = decodeKey(text.trim(), options.keyFile);
  return { key, source: options.keyFile, warning: await looseModeWarning(options.keyFile) };
}

/**
 * ssh's rule for a private key: one that its group or others may read or write is exposed. It is a
 * warning rather than a refusal, since the nightly run must not stop on a file a restore or a copy
 * left with the wrong mode; the warning names the chmod that fixes it. Windows has no such modes.
 */
async function looseModeWarning(keyFile: string): Promise<string | undefined> {
  if (process.platform === "win32") return undefined;
  const mode = (await stat(keyFile)).mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  return `the secret key file ${keyFile} has mode ${mode.toString(8).padStart(4, "0")}: other users may read the key that hashes tokens and seals page tokens; run chmod 600 ${keyFile}`;
}

/**
 * A new random key in `keyFile`, or the key in it when another process has just made it. The key
 * is written beside it and linked into place, so that the file is never seen empty or half-written.
 */
async function createKeyFile(keyFile: string): Promise<Buffer> {
  const key = randomBytes(KEY_BYTES);
  // Named as load/orphanedTemporaries.ts names temporaries (a floor above this one may not be
  // imported here), so that the export removes what a killed run left.
  const draft = path.join(
    path.dirname(keyFile),
    `.${path.basename(keyFile)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );
  try {
    await mkdir(path.dirname(keyFile), { recursive: true });
    // On disk before it is in place, and in place before any batch is made with it: a key file that
    // a power cut leaves empty or missing would make every later run refuse its database.
    const handle = await open(draft, "wx", 0o600);
    try {
      await handle.writeFile(`${key.toString("hex")}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(draft, 0o600);
    await linkOrMove(draft, keyFile);
    await syncDirectory(path.dirname(keyFile));
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      const existing = await readSecretKey({ fromEnv: undefined, keyFile });
      if (existing !== undefined) return existing.key;
    }
    throw keyFileError(keyFile, error);
  } finally {
    await rm(draft, { force: true });
  }
}

/** Makes a directory's entries durable; a file system that cannot sync a directory is left be. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r").catch(() => undefined);
  if (handle === undefined) return;
  try {
    await handle.sync();
  } catch {
    // Some file systems (and platforms) refuse fsync on a directory: the link is made all the same.
  } finally {
    await handle.close();
  }
}

/**
 * Puts `draft` at `target` unless a file is there. A link never replaces a file, so a key another
 * process has just made stays; a file system without hard links (some network shares) gets a move,
 * which the database's lock, held meanwhile, keeps from racing another export of that database.
 */
async function linkOrMove(draft: string, target: string): Promise<void> {
  try {
    await link(draft, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP") throw error;
    await rename(draft, target);
  }
}

function decodeKey(text: string, source: string): Buffer {
  const key = /^[0-9a-f]+$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length < KEY_BYTES) {
    throw new ZooUsageError({
      code: "config.invalid",
      message: `The secret key from ${source} is ${key.length} bytes; at least ${KEY_BYTES} are needed`,
      hint:
        source === SECRET_KEY_VARIABLE
          ? "Use 64 hex characters (e.g. `openssl rand -hex 32`)."
          : "A key file holds 64 hex characters: put back the one of the database's backup. If it is lost for good, delete it and run once with --new-secret-key.",
    });
  }
  return key;
}

function keyFileError(keyFile: string, cause: unknown): ZooUsageError {
  return new ZooUsageError({
    code: "config.invalid",
    message: `Cannot read or create the secret key file ${keyFile}: ${(cause as Error).message}`,
    hint: "Make the directory writable, or set ZOO_USAGE_SECRET_KEY.",
    cause,
  });
}
