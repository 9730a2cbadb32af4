import type { PriceMode } from "./billing.js";
import { ByteWriter } from "./byteWriter.js";
import { operationTypeOf } from "./callFacts.js";
import { CallItems } from "./callItems.js";
import { callRateShape } from "./callRate.js";
import { type CallContext, type RawCall, rawCall, writeCallJson } from "./callRecord.js";
import { CreditLedger } from "./creditLedger.js";
import { SIM_DEFAULTS } from "./defaults.js";
import { CallIdentity, derivedUuid } from "./identity.js";
import { billingAccountOf } from "./invoiceItems.js";
import { type KeysetCalls, keysetPage, type SortKey, type SortMode } from "./keysetPage.js";
import { type LateBilling, lateBillingOf } from "./lateBilling.js";
import { LiteralCache } from "./literalCache.js";
import { buildOperation } from "./operations.js";
import { UUID_PATTERN } from "./random.js";
import { SALT } from "./salts.js";
import { microsFromDate } from "./time.js";
import { Timeline } from "./timeline.js";
import type { ApiCallRecord, AsyncOperation, SimUser, SimulatorOptions } from "./types.js";
import { UserIndex } from "./userIndex.js";
import { createUsers, type UserProfile, userOf } from "./users.js";

/** The simulator's options; the dataset reads those the history depends on (seed, sizes, clock, billing). */
export type DatasetOptions = SimulatorOptions;

/** The simulated clock's default start. */
export const DEFAULT_NOW_ISO = SIM_DEFAULTS.nowIso;
/** How far back a polling call looks for the operation it polls. */
const POLL_LOOKBACK = 64;

/**
 * The simulated truth, without HTTP: a pure function of the options and the moment asked about.
 * Tests and independent checkers enumerate it directly. The only state is a memo of which calls
 * belong to which user, grown lazily as later moments are asked about.
 */
export class Dataset implements CallContext {
  readonly seed: number;
  readonly priceMode: PriceMode;
  readonly lateBilling: LateBilling;
  readonly perCallItems: boolean;
  /** Who paid for each billed call: credits, or an invoice (see CreditLedger). */
  readonly ledger: CreditLedger;
  readonly #items: CallItems;
  readonly #initialNowMs: number;
  readonly timeline: Timeline;
  readonly #identity: CallIdentity;
  readonly #profiles: UserProfile[];
  readonly #byUser: UserIndex[];
  readonly #userByToken = new Map<string, number>();
  #indexedUpTo = 0;
  readonly #literals = new LiteralCache();
  /** Call i's position in the listing's (created_at, id) order. */
  readonly keyOf = (i: number): SortKey => ({ createdUs: this.timeline.createdAt(i), id: this.idOf(i) });
  readonly #keyset: KeysetCalls = {
    createdAt: (i) => this.timeline.createdAt(i),
    idOf: (i) => this.idOf(i),
    visibleFrom: (i) => this.timeline.visibleFrom(i),
  };

  constructor(options: DatasetOptions = {}) {
    this.seed = (options.seed ?? 1) >>> 0;
    this.priceMode = options.priceMode ?? "realistic";
    this.lateBilling = lateBillingOf(options.lateBilling);
    this.#initialNowMs = (options.now ?? new Date(DEFAULT_NOW_ISO)).getTime();
    const calls = options.calls ?? 10_000;
    const userCount = options.users ?? 3;
    this.#profiles = createUsers(this.seed, userCount, options);
    this.timeline = new Timeline(
      this.seed,
      microsFromDate(this.initialNow),
      options.days ?? 90,
      calls,
      userCount,
      options.tieShare ?? 0,
      callRateShape(options),
    );
    this.#identity = new CallIdentity(this.seed);
    this.perCallItems = options.invoiceItems === "per-call";
    const { runwayGrantDays } = options;
    this.ledger = new CreditLedger(this, this.#initialNowMs * 1000, this.perCallItems, runwayGrantDays);
    // The planted disagreements land on user 0's account.
    const first = this.#profiles[0];
    const planted =
      options.missingInvoiceItem && first !== undefined ? billingAccountOf(first).id : undefined;
    const creditsShown = (options.creditsOnInvoice ?? "none") !== "none";
    this.#items = new CallItems(this.seed, this.ledger, this.perCallItems, planted, creditsShown);
    // Sized for the initial clock (user 0 gets about half the stream, see userOf); grows after.
    this.#byUser = this.#profiles.map(
      (_, u) =>
        new UserIndex(Math.ceil(u === 0 ? calls * 0.55 : (calls * 0.55) / Math.max(1, userCount - 1))),
    );
    this.#profiles.forEach((p, u) => {
      this.#userByToken.set(p.token, u);
    });
  }

  /** The simulated clock's start: about `calls` calls are visible then. */
  get initialNow(): Date {
    return new Date(this.#initialNowMs);
  }

  /** Users with their bearer tokens (API surface: id, token, email, orgId, orgRole). */
  get users(): SimUser[] {
    return this.#profiles.map(({ id, token, email, orgId, orgRole }) => ({
      id,
      token,
      email,
      orgId,
      orgRole,
    }));
  }

  /** The id of user `u`. */
  userId(u: number): string | undefined {
    return this.#profiles[u]?.id;
  }

  /** User `u` with the pools its calls draw from. */
  profileOf(u: number): UserProfile | undefined {
    return this.#profiles[u];
  }

  /** The indices of the users of org `orgId`, ascending (the org is the users with that orgId). */
  orgMembers(orgId: string): number[] {
    return this.#profiles.flatMap((p, u) => (p.orgId === orgId ? [u] : []));
  }

  userIndexByToken(token: string): number | undefined {
    return this.#userByToken.get(token);
  }

  createdAt(i: number): number {
    return this.timeline.createdAt(i);
  }

  idOf(i: number): string {
    return this.#identity.idOf(i, this.timeline.createdAt(i));
  }

  literal(text: string): Uint8Array {
    return this.#literals.literal(text);
  }

  /** When the first call was made: where the invoice periods and the credits start. */
  get firstCallUs(): number {
    return this.timeline.createdAt(0);
  }

  invoiceItemOf(
    i: number,
    user: UserProfile,
    createdUs: number,
    billedUs: number,
    nowUs: number,
  ): string | undefined {
    return this.#items.itemOf(i, user, createdUs, billedUs, nowUs);
  }

  idWords(i: number): Uint32Array {
    return this.#identity.idWords(i, this.timeline.createdAt(i));
  }

  /** Calls of one tie group belong to one user, so ties show up inside a user's listing. */
  userIndexOf(i: number): number {
    return userOf(this.seed, this.timeline.tieGroupStart(i), this.#profiles.length);
  }

  ownerOf(i: number): UserProfile {
    const owner = this.#profiles[this.userIndexOf(i)];
    if (owner === undefined) throw new Error(`unreachable: no owner for call ${i}`);
    return owner;
  }

  /** The number of calls created at or before `now` (visible or not yet listed). */
  countCreated(now: Date): number {
    return this.timeline.countCreatedBy(microsFromDate(now));
  }

  isVisible(i: number, now: Date): boolean {
    const nowUs = microsFromDate(now);
    return this.timeline.createdAt(i) <= nowUs && this.timeline.visibleFrom(i) <= nowUs;
  }

  /**
   * Call i as listed at `now` (whether or not it is visible yet): the parse of exactly the JSON the
   * server writes, with price as its decimal string.
   */
  callAt(i: number, now: Date): ApiCallRecord {
    return this.callAtMicros(i, microsFromDate(now));
  }

  callAtMicros(i: number, nowUs: number): ApiCallRecord {
    const writer = new ByteWriter(2048);
    writeCallJson(writer, this, rawCall(this, i, nowUs), true);
    return JSON.parse(writer.bytes().toString("utf8")) as ApiCallRecord;
  }

  /** Call i at `nowUs` in its raw form, for the serving path (see writeCall). */
  rawCallAt(i: number, nowUs: number): RawCall {
    return rawCall(this, i, nowUs);
  }

  /** Appends call i's ApiCallWithPrice JSON to `writer`. */
  writeCall(writer: ByteWriter, call: RawCall, priceAsString: boolean): void {
    writeCallJson(writer, this, call, priceAsString);
  }

  /** Call indices of user `u` visible at `now`, in the API's ascending (created_at, id) order. */
  *visibleIndicesForUser(u: number, now: Date): IterableIterator<number> {
    yield* this.pageIndices(u, microsFromDate(now), "created_at_ascending", null, Number.POSITIVE_INFINITY);
  }

  /** The records GET /user/api-calls serves user `u` at `now`, in created_at ascending order. */
  *visibleCallsForUser(u: number, now: Date): IterableIterator<ApiCallRecord> {
    const nowUs = microsFromDate(now);
    for (const i of this.visibleIndicesForUser(u, now)) yield this.callAtMicros(i, nowUs);
  }

  /**
   * One page of user `u`'s calls at `nowUs`: up to `limit` visible call indices that sort strictly
   * after `after` in the given order (Dropshot keyset pagination), or from the start without a key.
   */
  pageIndices(u: number, nowUs: number, order: SortMode, after: SortKey | null, limit: number): number[] {
    const { list, end } = this.#listFor(u, nowUs);
    return keysetPage(this.#keyset, list, end, { nowUs, order, after, limit });
  }

  /**
   * The index of the call with this id, if it is one of ours (any moment). Ids embed their index
   * (see CallIdentity), so this is a decode and a comparison, not a lookup table.
   */
  findCallIndex(id: string): number | undefined {
    if (!UUID_PATTERN.test(id)) return undefined;
    const normalized = id.toLowerCase();
    const candidate = this.#identity.candidateIndex(normalized);
    if (candidate > 0x7fffffff) return undefined;
    return this.idOf(candidate) === normalized ? candidate : undefined;
  }

  /**
   * The index of call `id` if user `u` may see it at `nowUs` (theirs and listed by then), as
   * GET /user/api-calls/{id} serves it; undefined for an unknown id or another user's call.
   */
  visibleCallIndexForUser(id: string, u: number, nowUs: number): number | undefined {
    const i = this.findCallIndex(id);
    if (i === undefined || this.userIndexOf(i) !== u) return undefined;
    const listed = this.timeline.createdAt(i) <= nowUs && this.timeline.visibleFrom(i) <= nowUs;
    return listed ? i : undefined;
  }

  /**
   * The operation started by the call `callId`, as GET /async/operations/{id} returns it at `now`:
   * undefined if there is no such call, it started no operation, or it is not visible yet.
   */
  operationFor(callId: string, now: Date): AsyncOperation | undefined {
    const i = this.findCallIndex(callId);
    if (i === undefined || !this.isVisible(i, now)) return undefined;
    const type = operationTypeOf(this.seed, i);
    if (type === null) return undefined;
    const origin = {
      seed: this.seed,
      index: i,
      type,
      id: this.idOf(i),
      userId: this.ownerOf(i).id,
      createdUs: this.timeline.createdAt(i),
    };
    return buildOperation(origin, microsFromDate(now));
  }

  /** The operation a polling call (GET /async/operations/{id}) asked about: an earlier one of the same user. */
  earlierOperationId(i: number): string {
    const owner = this.userIndexOf(i);
    for (let j = i - 1; j >= 0 && j >= i - POLL_LOOKBACK; j--) {
      if (this.userIndexOf(j) === owner && operationTypeOf(this.seed, j) !== null) return this.idOf(j);
    }
    // Nothing recent: the user polled an id we do not know (real clients do; the API answers 404).
    return derivedUuid(this.seed, i, SALT.unknownPoll);
  }

  #listFor(u: number, nowUs: number): { list: UserIndex; end: number } {
    const list = this.#byUser[u];
    if (list === undefined) throw new RangeError(`no simulated user ${u}`);
    const created = this.timeline.countCreatedBy(nowUs);
    this.#indexUpTo(created);
    return { list, end: list.countBelow(created) };
  }

  #indexUpTo(count: number): void {
    for (let i = this.#indexedUpTo; i < count; i++) this.#byUser[this.userIndexOf(i)]?.push(i);
    if (count > this.#indexedUpTo) this.#indexedUpTo = count;
  }
}

export function createDataset(options: DatasetOptions = {}): Dataset {
  return new Dataset(options);
}
