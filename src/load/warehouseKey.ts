import { ZooUsageError } from "../errors.js";
import { SecretBox } from "../secrets/secretBox.js";
import { loadSecretKey, readSecretKey } from "../secrets/secretKey.js";
import { readKeyEvidence, recordKeyCheck } from "./checkpoint.js";
import type { Warehouse } from "./database.js";

/** The run's secret key, and the check the database held when the run started. */
export interface SecretKeyClaim {
  secrets: SecretBox;
  recorded: string | null;
  /** The database was written with another key, which --new-secret-key gives up. */
  replacesKey: boolean;
  /** What the run should warn about the key's file (a mode that lets others read it). */
  warning: string | undefined;
}

/**
 * The secret key of this run, checked against the one the database was written with. Its hashed
 * columns (token_hash; email and ip_address when hashed) and sealed page tokens are made with one
 * key: a run with another would start new hashes for the same token or person, and per-token or
 * per-person sums would split without a word. Such a run is refused, and a missing key file is not
 * replaced by a new one, unless `acceptNewKey` (--new-secret-key) says the old key is lost for good.
 *
 * The database's key is the one its check names. Every batch of calls, tokens, members or invoices
 * writes the check with its rows (commitPosition, ListingSource), so the check is always the key of
 * the last batch stored, and a run refused before it stores one (another user's calls, say) leaves
 * it as it was. A database made before the check is known by its newest sealed page token; one
 * that holds neither (new) takes this run's key.
 */
export async function checkSecretKey(
  warehouse: Warehouse,
  options: { fromEnv: string | undefined; keyFile: string; acceptNewKey: boolean },
): Promise<SecretKeyClaim> {
  const { keyCheck: recorded, sealedToken } = await readKeyEvidence(warehouse);
  const keyed = recorded !== null || sealedToken !== null;
  const found = await readSecretKey(options);
  if (keyed && found === undefined && !options.acceptNewKey)
    throw keyFileMissing(warehouse.path, options.keyFile);
  const { key, source, warning } = found ?? (await loadSecretKey(options));
  const secrets = new SecretBox(key);
  const isDatabaseKey =
    recorded !== null
      ? secrets.keyCheck === recorded
      : sealedToken !== null && secrets.open(sealedToken) !== undefined;
  if (keyed && !isDatabaseKey && !options.acceptNewKey)
    throw otherKey(warehouse.path, source, options.keyFile);
  if (recorded === null && isDatabaseKey) {
    // A database made before the check, its key proven by its page token: recorded at once, since
    // a run may forget every stored token (the API refused one) before it stores a batch.
    await recordKeyCheck(warehouse, secrets.keyCheck);
    return { secrets, recorded: secrets.keyCheck, replacesKey: false, warning };
  }
  return { secrets, recorded, replacesKey: keyed && !isDatabaseKey, warning };
}

/**
 * At the end of a run: records its key when no batch did (a run that stored nothing; any batch
 * records it, with the rows it hashed). Returns the warning to give when the key replaced the
 * database's, for the run's summary.
 */
export async function recordSecretKey(
  warehouse: Warehouse,
  claim: SecretKeyClaim,
): Promise<string | undefined> {
  const { keyCheck } = claim.secrets;
  if (keyCheck === claim.recorded) return undefined;
  await recordKeyCheck(warehouse, keyCheck);
  return claim.replacesKey
    ? "--new-secret-key: the database was written with another secret key; the rows stored before this run keep the old key's hashes, which do not match this run's"
    : undefined;
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
