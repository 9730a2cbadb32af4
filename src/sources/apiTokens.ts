import { tokenRows } from "../transform/spenderRows.js";
import { describeSpenders, spenderSource } from "./listing/spenderListing.js";

/**
 * The token user's own API tokens (GET /user/api-tokens, in both scopes: the API has no org-wide
 * token list), kept as their last 4 characters, which is all the API shows of a token. The one
 * listing of who holds the tokens in both scopes, it says their line in the printed summary.
 */
export const apiTokens = {
  ...spenderSource({
    name: "api tokens",
    path: "/user/api-tokens",
    table: "api_tokens",
    noun: "API token",
    check: () => (items) => tokenRows(items, "api_token"),
  }),
  describe: describeSpenders,
};
