import { memberRows } from "../transform/spenderRows.js";
import { spenderSource } from "./listing/spenderListing.js";

/** The org's members (GET /org/members, org scope), the email as --email-column says. */
export const orgMembers = spenderSource({
  name: "org members",
  path: "/org/members",
  table: "org_members",
  noun: "org member",
  check: (context) => (items) => memberRows(items, context.options.privacy.email, context.deps.secrets),
});
