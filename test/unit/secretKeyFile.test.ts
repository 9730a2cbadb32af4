import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
import { loadSecretKey, readSecretKey } from "../../src/secrets/secretKey.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

test("a key file is made whole, mode 0600, once: ten loads at the same moment get one key", async () => {
  const { dir, cleanup } = await tempWorkspace();
  const keyFile = path.join(dir, "nested", "zoo_usage.key");
  try {
    const loads = await Promise.all(
      Array.from({ length: 10 }, () => loadSecretKey({ fromEnv: undefined, keyFile })),
    );
    const keys = new Set(loads.map((loaded) => loaded.key.toString("hex")));
    expect(keys.size).toBe(1);
    const [key] = keys;
    expect(await readFile(keyFile, "utf8")).toBe(`${key}\n`);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    // The drafts the key was written to before it was linked into place are gone.
    expect(await readdir(path.dirname(keyFile))).toEqual(["zoo_usage.key"]);
    expect(loads[0]?.source).toBe(keyFile);
  } finally {
    await cleanup();
  }
});

test("the same key read as hex or base64, from the variable or the file, and a short one refused", async () => {
  const { dir, cleanup } = await tempWorkspace();
  const keyFile = path.join(dir, "zoo_usage.key");
  const hex = "c4".repeat(32);
  try {
    const fromHex = await readSecretKey({ fromEnv: ` ${hex} `, keyFile });
    const fromBase64 = await readSecretKey({ fromEnv: Buffer.from(hex, "hex").toString("base64"), keyFile });
    expect(fromHex).toEqual({ key: Buffer.from(hex, "hex"), source: "ZOO_USAGE_SECRET_KEY" });
    expect(fromBase64?.key).toEqual(fromHex?.key);
    // A blank variable is no variable: the key file, here absent.
    expect(await readSecretKey({ fromEnv: "  ", keyFile })).toBeUndefined();

    await writeFile(keyFile, `${hex}\n`, { mode: 0o600 });
    expect(await readSecretKey({ fromEnv: undefined, keyFile })).toEqual({
      key: fromHex?.key,
      source: keyFile,
    });
    await writeFile(keyFile, "c4c4\n");
    await expect(readSecretKey({ fromEnv: undefined, keyFile })).rejects.toMatchObject({
      code: "config.invalid",
      message: `The secret key from ${keyFile} is 2 bytes; at least 32 are needed`,
      hint: expect.stringMatching(/backup.*--new-secret-key/),
    });
    await expect(readSecretKey({ fromEnv: "c4c4", keyFile })).rejects.toMatchObject({
      hint: "Use 64 hex characters (e.g. `openssl rand -hex 32`).",
    });
  } finally {
    await cleanup();
  }
});
