import { tokenRows } from "../transform/spenderRows.js";
import { spenderSource } from "./listing/spenderListing.js";

/** The org's service accounts (GET /org/service-accounts, org scope), tokens kept as their last 4. */
export const serviceAccounts = spenderSource({
  name: "service accounts",
  path: "/org/service-accounts",
  table: "service_accounts",
  noun: "service account",
  check: () => (items) => tokenRows(items, "service_account"),
});
