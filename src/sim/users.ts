import { EMAIL_DOMAINS, FIRST_NAMES } from "./catalog.js";
import { derivedUuid } from "./identity.js";
import { hash32, pick, unit } from "./random.js";
import { SALT } from "./salts.js";
import type { SimUser, SimulatorOptions } from "./types.js";

/** A user plus the per-user pools its calls draw from. */
export interface UserProfile extends SimUser {
  /** Ids of the user's API tokens: ApiCallWithPrice.token is one of these (1 to 3 per user). */
  apiTokens: string[];
  /**
   * The tokens the user's calls are made with: its own API tokens and, for an org member, the org's
   * service accounts (integrations the org shares).
   */
  callTokens: string[];
  /** The user's first name (OrgMember.first_name; the email starts with it). */
  firstName: string;
  /** The few IPv4 addresses the user calls from. */
  ipv4: string[];
}

/**
 * Users are derived from the seed. User 0 has no org (billed personally) and users 1 to 3 belong to
 * one org, of which user 1 is the admin, so both shapes of ApiCallWithPrice.org_id appear whenever
 * there are two users or more, and an org of three members exists from four users on. Later users
 * join the org or not by chance. There is one org: an org is the users with the same orgId.
 */
export function createUsers(
  seed: number,
  count: number,
  options: Pick<SimulatorOptions, "firstUserToken" | "firstUserApiTokens" | "accountIds"> = {},
): UserProfile[] {
  const { firstUserToken, firstUserApiTokens, accountIds } = options;
  const idSalt = accountIds === "demo" ? SALT.demoUserId : SALT.userId;
  const orgSalt = accountIds === "demo" ? SALT.demoUserOrg : SALT.userOrg;
  if (!Number.isInteger(count) || count < 1) throw new RangeError("the simulator needs users >= 1");
  const users: UserProfile[] = [];
  for (let u = 0; u < count; u++) {
    const name = pick(FIRST_NAMES, seed, u, SALT.userEmail);
    const domain = pick(EMAIL_DOMAINS, seed, u, SALT.userEmail + 100);
    const suffix = (hash32(seed, u, SALT.userEmail + 200) % 900) + 100;
    const hasOrg = u >= 1 && (u <= 3 || unit(seed, u, SALT.userOrg) < 0.5);
    const tokenCount =
      u === 0 && firstUserApiTokens !== undefined
        ? firstUserApiTokens
        : u === 1
          ? 3
          : 1 + (hash32(seed, u, SALT.userApiTokens) % 3);
    // Eight ids a user; a first user's tokens past eight come from a range no user reaches.
    const apiTokens = Array.from({ length: tokenCount }, (_, k) =>
      derivedUuid(seed, k < 8 ? u * 8 + k : EXTRA_TOKEN_INDEX + k, SALT.userApiTokens),
    );
    const ownTokens = u === 1 ? withSharedLastFour(apiTokens) : apiTokens;
    users.push({
      id: derivedUuid(seed, u, idSalt),
      token: u === 0 && firstUserToken !== undefined ? firstUserToken : derivedUuid(seed, u, SALT.userToken),
      email: `${name}.${suffix}@${domain}`,
      orgId: hasOrg ? derivedUuid(seed, 1, orgSalt) : null,
      orgRole: hasOrg ? (u === 1 ? "admin" : "member") : null,
      apiTokens: ownTokens,
      callTokens: hasOrg ? [...ownTokens, ...serviceAccountTokens(seed)] : ownTokens,
      firstName: name,
      ipv4: Array.from({ length: 3 }, (_, k) => ipv4(hash32(seed, u * 8 + k, SALT.userIps))),
    });
  }
  return users;
}

/** Where the ids of a first user's tokens past its eighth start (--api-tokens). */
const EXTRA_TOKEN_INDEX = 2 ** 40;

/** The org's service accounts (two): tokens of the org rather than of a user (ServiceAccount). */
export function serviceAccountTokens(seed: number): string[] {
  return [0, 1].map((k) => derivedUuid(seed, k, SALT.serviceAccountToken));
}

/**
 * The tokens with the second one ending in the first one's last 4 characters: GET /user/api-tokens
 * shows only those 4, so a call made with either token matches both (an ambiguity that is real).
 */
function withSharedLastFour(tokens: string[]): string[] {
  const [first, second, ...rest] = tokens;
  if (first === undefined || second === undefined) return tokens;
  return [first, `${second.slice(0, -4)}${first.slice(-4)}`, ...rest];
}

function ipv4(h: number): string {
  return `${((h >>> 24) % 200) + 23}.${(h >>> 16) & 0xff}.${(h >>> 8) & 0xff}.${(h & 0xfe) + 1}`;
}

/**
 * The owner of call i. The first `count` calls go one to each user so every user has calls; after
 * that user 0 gets half of the stream and the others share the rest, so user 0 is the heavy user.
 */
export function userOf(seed: number, i: number, count: number): number {
  if (i < count) return i;
  if (count === 1) return 0;
  const u = unit(seed, i, SALT.user);
  if (u < 0.5) return 0;
  return 1 + Math.min(count - 2, Math.floor((u - 0.5) * 2 * (count - 1)));
}
