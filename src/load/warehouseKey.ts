import { ZooUsageError } from "../errors.js";
import type { Logger } from "../log/logger.js";
import { keyCheck } from "../secrets/secretBox.js";
import { loadSecretKey, readSecretKey } from "../secrets/secretKey.js";
import type { Warehouse } from "./database.js";

/**
 * The secret key of this run, checked against the one the database was written with. Its hashed
 * columns (token_hash; email and ip_address when hashed) and sealed page tokens are made with one
 * key: a run with another would start new hashes for the same token or person, and per-token or
 * per-person sums would split without a word. Such a run is refused, and a missing key file is not
 * replaced by a new one, unless `acceptNewKey` (--new-secret-key) says the old key is lost for good.
 * A database that records no key yet (new, or made before the check) takes this run's.
 */
export async function claimSecretKey(
  warehouse: Warehouse,
  options: { fromEnv: string | undefined; keyFile: string; acceptNewKey: boolean },
  logger: Logger,
): Promise<Buffer> {
  const reader = await warehouse.connection.runAndReadAll(
    "SELECT secret_key_check FROM internal.warehouse_identity LIMIT 1",
  );
  const stored = reader.getRowsJS()[0]?.[0];
  const recorded = typeof stored === "string" ? stored : null;
  const found = await readSecretKey(options);
  if (recorded !== null && !options.acceptNewKey) {
    if (found === undefined) throw keyFileMissing(warehouse.path, options.keyFile);
    if (keyCheck(found.key) !== recorded) throw otherKey(warehouse.path, found.source, options.keyFile);
  }
  const { key } = found ?? (await loadSecretKey(options));
  const check = keyCheck(key);
  if (check === recorded) return key;
  if (recorded !== null) {
    logger.warn(
      "--new-secret-key: the database's hashes and stored page tokens were made with another key; rows stored before this run keep the old key's hashes, which do not match this run's",
    );
  }
  await warehouse.connection.run("UPDATE internal.warehouse_identity SET secret_key_check = $check", {
    check,
  });
  return key;
}

const LOST_FOR_GOOD =
  "If that key is lost for good, run once with --new-secret-key: the rows stored until now keep the old key's hashes, and the rows after get the new key's.";

function keyFileMissing(dbPath: string, keyFile: string): ZooUsageError {
  return new ZooUsageError({
    code: "warehouse.other_key",
    message: `The secret key file ${keyFile} is missing, but the database ${dbPath} was written with a secret key`,
    hint: `The key file goes with the database and is named after it: put the one this database was written with at ${keyFile} (from its backup, or under its old name if the database was renamed), or set ZOO_USAGE_SECRET_KEY to that key. ${LOST_FOR_GOOD}`,
  });
}

function otherKey(dbPath: string, source: string, keyFile: string): ZooUsageError {
  return new ZooUsageError({
    code: "warehouse.other_key",
    message: `The secret key from ${source} is not the one the database ${dbPath} was written with`,
    hint: `Use the key the database was written with: ${source === keyFile ? "the key file of its backup, or ZOO_USAGE_SECRET_KEY set to that key" : `ZOO_USAGE_SECRET_KEY as it was, or unset it to use ${keyFile}`}. ${LOST_FOR_GOOD}`,
  });
}
