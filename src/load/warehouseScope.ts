import type { ApiScope } from "../api/scope.js";
import { ZooUsageError } from "../errors.js";
import type { Warehouse } from "./database.js";
import { sqlFile } from "./sqlFiles.js";

/** Whose data a warehouse holds: one scope and one owner (a user id, or an org id). */
export interface ScopeOwner {
  scope: ApiScope;
  /** The org id in org scope; the user id in user scope (null until the first call is stored). */
  ownerId: string | null;
}

/**
 * Records the run's scope and owner in warehouse_identity, or refuses a run that would mix them
 * into data of another scope or owner. A warehouse without a stored scope is a user-scope one if it
 * holds anything (it was made before scopes existed); an empty one takes the run's. In user scope
 * the owner is the user of export_state, copied here once known (the scan itself refuses another
 * user's calls); in org scope it is the org id the API gave for the token.
 */
export async function claimScope(warehouse: Warehouse, run: ScopeOwner): Promise<void> {
  const { connection } = warehouse;
  const reader = await connection.runAndReadAll(sqlFile("statements/stored_scope.sql"));
  const [scope, ownerId, stateUser, hasCalls, holdsData] = reader.getRows()[0] ?? [
    null,
    null,
    null,
    false,
    false,
  ];
  const storedScope =
    scope === "user" || scope === "org" ? scope : stateUser !== null || hasCalls === true ? "user" : null;
  const storedOwner =
    typeof ownerId === "string" ? ownerId : typeof stateUser === "string" ? stateUser : null;
  const stored = { scope: storedScope ?? run.scope, ownerId: storedOwner, holdsData: holdsData === true };
  if (storedScope !== null && storedScope !== run.scope) throw otherScope(warehouse.path, stored, run);
  if (storedOwner !== null && run.ownerId !== null && storedOwner !== run.ownerId)
    throw otherScope(warehouse.path, stored, run);
  await connection.run(
    "UPDATE internal.warehouse_identity SET scope = $scope, owner_id = coalesce(owner_id, $owner)",
    {
      scope: run.scope,
      owner: run.ownerId ?? (run.scope === "user" ? (stateUser as string | null) : null),
    },
  );
}

function describe(scope: ApiScope, ownerId: string | null): string {
  const who = scope === "org" ? "org" : "user";
  return ownerId === null ? `${scope} scope` : `${scope} scope (${who} ${ownerId})`;
}

/**
 * The refusal of a run of another scope or owner. It says whose data the database holds only when
 * it holds some: a database whose first run claimed it and then stored nothing (it failed, or was
 * stopped) is said to be set up for that owner, and empty.
 */
function otherScope(
  dbPath: string,
  stored: { scope: ApiScope; ownerId: string | null; holdsData: boolean },
  run: ScopeOwner,
): ZooUsageError {
  const sameScope = stored.scope === run.scope;
  const whose = describe(stored.scope, stored.ownerId);
  const message = stored.holdsData
    ? `The database ${dbPath} holds the data of ${whose}, but this run exports ${describe(run.scope, run.ownerId)}`
    : `The database ${dbPath} was set up for ${whose} by an earlier run and holds no data yet, but this run exports ${describe(run.scope, run.ownerId)}`;
  const hint = stored.holdsData
    ? `A database holds one scope and one owner: pass another --db (and --out) for this run${sameScope ? "" : `, or run with --scope ${stored.scope} on this one`}.`
    : "A database holds one scope and one owner: pass another --db (and --out) for this run.";
  return new ZooUsageError({
    code: sameScope ? "warehouse.other_owner" : "warehouse.other_scope",
    message,
    hint,
  });
}
