import { notVisibleStatus } from "../api/notVisible.js";
import { ZooUsageError } from "../errors.js";
import { claimScope, type ScopeOwner } from "../load/warehouseScope.js";
import type { ExportDeps, ExportOptions } from "../sources/exportSettings.js";

/**
 * The run's scope and owner, claimed in the warehouse before anything else is read or written: in
 * org scope the owner is the org GET /org names for the token (so another org's admin token is
 * refused before its first call is stored); in user scope it is the user of the calls, which the
 * scan checks call by call.
 */
export async function claimRunScope(deps: ExportDeps, options: ExportOptions): Promise<ScopeOwner> {
  const ownerId = options.scope === "org" ? await orgIdOf(deps) : null;
  const owner: ScopeOwner = { scope: options.scope, ownerId };
  await claimScope(deps.warehouse, owner);
  return owner;
}

async function orgIdOf(deps: ExportDeps): Promise<string> {
  try {
    return await deps.client.getOrgId();
  } catch (error) {
    const status = notVisibleStatus(error);
    if (status !== undefined) {
      throw new ZooUsageError({
        code: (error as ZooUsageError).code,
        message: `--scope org needs the token of an org admin: GET /org answered ${status === 403 ? "403 (the token's user is not an admin of its org)" : "404 (the token's user belongs to no org)"}`,
        hint: "Use an org admin's API token for --scope org, or export this token's own calls with --scope user.",
        cause: error,
      });
    }
    throw error;
  }
}
