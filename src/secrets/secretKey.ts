import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, readFile } from "node:fs/promises";
import path from "node:path";
import { ZooUsageError } from "../errors.js";

/** 32 bytes: a full-strength key for HMAC-SHA256 and AES-256-GCM. */
const KEY_BYTES = 32;

const SECRET_KEY_VARIABLE = "ZOO_USAGE_SECRET_KEY";

/** The secret key and where it came from: ZOO_USAGE_SECRET_KEY, or the path of the key file. */
export interface SecretKey {
  key: Buffer;
  source: string;
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
  try {
    const key = decodeKey((await readFile(options.keyFile, "utf8")).trim(), options.keyFile);
    return { key, source: options.keyFile };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw keyFileError(options.keyFile, error);
    return undefined;
  }
}

/** A new random key in `keyFile`; the key in it when another process has just created it. */
async function createKeyFile(keyFile: string): Promise<Buffer> {
  const key = randomBytes(KEY_BYTES);
  try {
    await mkdir(path.dirname(keyFile), { recursive: true });
    // "wx": never overwrite a key another process has just created.
    const handle = await open(keyFile, "wx", 0o600);
    await handle.writeFile(`${key.toString("hex")}\n`);
    await handle.close();
    await chmod(keyFile, 0o600);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      const existing = await readSecretKey({ fromEnv: undefined, keyFile });
      if (existing !== undefined) return existing.key;
    }
    throw keyFileError(keyFile, error);
  }
}

function decodeKey(text: string, source: string): Buffer {
  const key = /^[0-9a-f]+$/i.test(text) ? Buffer.from(text, "hex") : Buffer.from(text, "base64");
  if (key.length < KEY_BYTES) {
    throw new ZooUsageError({
      code: "config.invalid",
      message: `The secret key from ${source} is ${key.length} bytes; at least ${KEY_BYTES} are needed`,
      hint: "Use 64 hex characters (e.g. `openssl rand -hex 32`), or delete the key file to make a new one.",
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
