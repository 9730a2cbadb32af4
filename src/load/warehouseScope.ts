import type { ApiScope } from "../api/scope.js";
import { ZooUsageError } from "../errors.js";
import type { Warehouse } from "./database.js";

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
  const reader = await connection.runAndReadAll(
    `SELECT i.scope, i.owner_id,
       (SELECT user_id::VARCHAR FROM internal.export_state LIMIT 1) AS state_user,
       EXISTS (SELECT 1 FROM api_calls) AS has_calls
     FROM internal.warehouse_identity AS i LIMIT 1`,
  );
  const [scope, ownerId, stateUser, hasCalls] = reader.getRows()[0] ?? [null, null, null, false];
  const storedScope =
    scope === "user" || scope === "org" ? scope : stateUser !== null || hasCalls === true ? "user" : null;
  const storedOwner =
    typeof ownerId === "string" ? ownerId : typeof stateUser === "string" ? stateUser : null;
  if (storedScope !== null && storedScope !== run.scope)
    throw otherScope(warehouse.path, storedScope, storedOwner, run);
  if (storedOwner !== null && run.ownerId !== null && storedOwner !== run.ownerId) {
    throw otherScope(warehouse.path, storedScope ?? run.scope, storedOwner, run);
  }
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

function otherScope(
  dbPath: string,
  storedScope: ApiScope,
  storedOwner: string | null,
  run: ScopeOwner,
): ZooUsageError {
  return new ZooUsageError({
    code: storedScope === run.scope ? "warehouse.other_owner" : "warehouse.other_scope",
    message: `The database ${dbPath} holds the data of ${describe(storedScope, storedOwner)}, but this run exports ${describe(run.scope, run.ownerId)}`,
    hint: `A database holds one scope and one owner: pass another --db (and --out) for this run${storedScope === run.scope ? "" : `, or run with --scope ${storedScope} on this one`}.`,
  });
}
