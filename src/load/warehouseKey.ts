import { ZooUsageError } from "../errors.js";
import type { Logger } from "../log/logger.js";
import { keyCheck, SecretBox } from "../secrets/secretBox.js";
import { loadSecretKey, readSecretKey } from "../secrets/secretKey.js";
import { forgetPositionsSealedOtherwise } from "./checkpoint.js";
import type { Warehouse } from "./database.js";

/** The run's secret key, and what the database is to record of it when the run ends. */
export interface SecretKeyClaim {
  key: Buffer;
  check: string;
  recorded: string | null;
}

/**
 * The secret key of this run, checked against the one the database was written with. Its hashed
 * columns (token_hash; email and ip_address when hashed) and sealed page tokens are made with one
 * key: a run with another would start new hashes for the same token or person, and per-token or
 * per-person sums would split without a word. Such a run is refused, and a missing key file is not
 * replaced by a new one, unless `acceptNewKey` (--new-secret-key) says the old key is lost for good.
 *
 * The database's key is the one its check records, or the one its newest sealed page token opens
 * with: that token is sealed by the last run that stored anything, so a run made with
 * --new-secret-key and killed before it recorded the key still counts. A database that holds
 * neither (new) takes this run's key. Nothing is recorded here: recordSecretKey does it when the
 * run ends, so that a run refused on the way (another user's calls, say) leaves the key as it was.
 */
export async function checkSecretKey(
  warehouse: Warehouse,
  options: { fromEnv: string | undefined; keyFile: string; acceptNewKey: boolean },
): Promise<SecretKeyClaim> {
  const reader = await warehouse.connection.runAndReadAll(
    `SELECT secret_key_check,
       coalesce((SELECT resume_token FROM internal.export_state LIMIT 1),
                (SELECT token FROM internal.page_ladder ORDER BY run_id DESC, last_created_at DESC LIMIT 1))
     FROM internal.warehouse_identity LIMIT 1`,
  );
  const [stored, sealed] = reader.getRowsJS()[0] ?? [null, null];
  const recorded = typeof stored === "string" ? stored : null;
  const sealedToken = typeof sealed === "string" ? sealed : null;
  const found = await readSecretKey(options);
  if (!options.acceptNewKey && (recorded !== null || sealedToken !== null)) {
    if (found === undefined) throw keyFileMissing(warehouse.path, options.keyFile);
    const isDatabaseKey =
      keyCheck(found.key) === recorded ||
      (sealedToken !== null && new SecretBox(found.key).open(sealedToken) !== undefined);
    if (!isDatabaseKey) throw otherKey(warehouse.path, found.source, options.keyFile);
  }
  const { key } = found ?? (await loadSecretKey(options));
  return { key, check: keyCheck(key), recorded };
}

/**
 * Records the run's key as the database's, saying so when it replaces another, and forgets the
 * page positions sealed with any other key.
 */
export async function recordSecretKey(
  warehouse: Warehouse,
  claim: SecretKeyClaim,
  logger: Logger,
): Promise<void> {
  if (claim.check === claim.recorded) return;
  await forgetPositionsSealedOtherwise(warehouse, new SecretBox(claim.key));
  if (claim.recorded !== null) {
    logger.warn(
      "the secret key changed (--new-secret-key): the rows stored before it keep the old key's hashes, which do not match the new key's",
    );
  }
  await warehouse.connection.run("UPDATE internal.warehouse_identity SET secret_key_check = $check", {
    check: claim.check,
  });
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
