import { billingOf, type PriceMode } from "./billing.js";
import type { ByteWriter } from "./byteWriter.js";
import { kindOf, requestOf, statusCodeOf } from "./callFacts.js";
import { BROWSER_ORIGINS, BROWSER_USER_AGENTS, CLIENT_USER_AGENTS } from "./catalog.js";
import type { LateBilling } from "./lateBilling.js";
import { hash32, hex32, pick, unit } from "./random.js";
import { SALT } from "./salts.js";
import type { UserProfile } from "./users.js";

/** What building a record needs from the dataset. */
export interface CallContext {
  readonly seed: number;
  readonly priceMode: PriceMode;
  /** When billing lands for the calls settled late. */
  readonly lateBilling: LateBilling;
  createdAt(i: number): number;
  /** The id's four words, in a scratch array valid until the next call. */
  idWords(i: number): Uint32Array;
  ownerOf(i: number): UserProfile;
  earlierOperationId(i: number): string;
  /** Encoded literal of a string from a bounded pool (see LiteralCache). */
  literal(text: string): Uint8Array;
  /**
   * The stripe_invoice_item_id of priced call i billed by `nowUs`, or undefined when credits paid
   * for it: the spec sets the id only "if it is billable".
   */
  invoiceItemOf(
    i: number,
    user: UserProfile,
    createdUs: number,
    billedUs: number,
    nowUs: number,
  ): string | undefined;
  /** Each billable call has its own item (an unbounded pool, so never a cached literal). */
  readonly perCallItems: boolean;
}

/** Whether stripe_invoice_item_id is omitted, "", or an invoice item id. */
type Invoice = "omitted" | "empty" | "item";

/**
 * Call i at a moment, as numbers and references to constant strings: the serving path writes it
 * straight to bytes (writeCallJson) and everything else parses those bytes, so the two cannot drift.
 */
export interface RawCall {
  index: number;
  user: UserProfile;
  createdUs: number;
  updatedUs: number;
  /** Null, like completed_at, until billing lands: both are the call's billing times (spec). */
  startedUs: number | null;
  completedUs: number | null;
  durationNs: number | null;
  minutes: number | null;
  seconds: number | null;
  method: string;
  endpoint: string;
  query: string;
  ip: string;
  origin: string;
  userAgent: string;
  token: string;
  priceMicros: number | null;
  statusCode: number | null;
  invoice: Invoice;
  /** The invoice item, when `invoice` is "item". */
  invoiceItem: string | undefined;
}

/** Call i as GET /user/api-calls shows it at `nowUs`. Only billing fields depend on the clock. */
export function rawCall(ctx: CallContext, i: number, nowUs: number): RawCall {
  const seed = ctx.seed;
  const createdUs = ctx.createdAt(i);
  const user = ctx.ownerOf(i);
  const kind = kindOf(seed, i);
  const request = requestOf(seed, i, kind, (j) => ctx.earlierOperationId(j));
  const billing = billingOf(seed, i, createdUs, kind, ctx.priceMode, ctx.lateBilling);
  const billed = nowUs >= billing.billedUs;
  const browser = unit(seed, i, SALT.client) < 0.3;

  let durationNs: number | null = null;
  if (
    billed
      ? !billing.durationMissing
      : nowUs >= billing.completedUs && hash32(seed, i, SALT.durationMissing) & 1
  ) {
    // Nanoseconds, so duration == completed_at - started_at exactly (the spec gives no unit).
    durationNs = billing.runUs * 1000;
  }
  const priceMicros = billed ? billing.price.micros : null;
  let invoice: Invoice = hash32(seed, i, SALT.invoiceStyle) % 3 === 0 ? "omitted" : "empty";
  const invoiceItem =
    priceMicros !== null && priceMicros > 0
      ? ctx.invoiceItemOf(i, user, createdUs, billing.billedUs, nowUs)
      : undefined;
  if (invoiceItem !== undefined) invoice = "item";

  return {
    index: i,
    user,
    createdUs,
    updatedUs: billed ? billing.billedUs : billing.pendingUpdateUs,
    startedUs: billed ? billing.startedUs : null,
    completedUs: billed ? billing.completedUs : null,
    durationNs,
    minutes: billed ? billing.price.minutes : null,
    seconds: billed ? billing.price.seconds : null,
    method: kind.method,
    endpoint: request.endpoint,
    query: request.query,
    ip: ipOf(seed, i, user),
    origin: browser ? pick(BROWSER_ORIGINS, seed, i, SALT.origin) : "",
    userAgent: browser
      ? pick(BROWSER_USER_AGENTS, seed, i, SALT.agent)
      : pick(CLIENT_USER_AGENTS, seed, i, SALT.agent),
    token: pick(user.callTokens, seed, i, SALT.token),
    priceMicros,
    statusCode: statusCodeOf(seed, i, kind),
    invoice,
    invoiceItem,
  };
}

function ipOf(seed: number, i: number, user: UserProfile): string {
  const h = hash32(seed, i, SALT.ipv6);
  if (h % 100 < 15) {
    // The documentation prefix 2001:db8::/32, in RFC 5952 form (no leading zeros in a group).
    const a = hex32(h);
    const b = hex32(hash32(seed, i, SALT.ipv6 + 1));
    const group = (hex: string) => hex.replace(/^0+(?=.)/, "");
    return `2001:db8:${group(a.slice(0, 4))}:${group(a.slice(4))}::${group(b.slice(0, 4))}`;
  }
  return pick(user.ipv4, seed, i, SALT.ip);
}

const key = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));
const K = {
  id: key('{"id":"'),
  userId: key('","user_id":'),
  createdAt: key(',"created_at":'),
  updatedAt: key(',"updated_at":'),
  startedAt: key(',"started_at":'),
  completedAt: key(',"completed_at":'),
  duration: key(',"duration":'),
  email: key(',"email":'),
  endpoint: key(',"endpoint":'),
  ip: key(',"ip_address":'),
  method: key(',"method":'),
  minutes: key(',"minutes":'),
  seconds: key(',"seconds":'),
  orgId: key(',"org_id":'),
  origin: key(',"origin":'),
  price: key(',"price":'),
  query: key(',"request_query_params":'),
  status: key(',"status_code":'),
  invoice: key(',"stripe_invoice_item_id":'),
  token: key(',"token":'),
  userAgent: key(',"user_agent":'),
  null: key("null"),
  emptyString: key('""'),
};

/**
 * Writes the record as ApiCallWithPrice JSON. `price` is the exact decimal text: a JSON number by
 * default (the spec's `type: number, format: money-usd`), or a string with `priceAsString`, as
 * Zoo's docs examples show ("30.11"). An omitted stripe_invoice_item_id is left out, not null.
 */
export function writeCallJson(w: ByteWriter, ctx: CallContext, r: RawCall, priceAsString: boolean): void {
  const id = ctx.idWords(r.index);
  w.raw(K.id);
  w.uuid(id[0] ?? 0, id[1] ?? 0, id[2] ?? 0, id[3] ?? 0);
  w.raw(K.userId);
  w.raw(ctx.literal(r.user.id));
  w.raw(K.createdAt);
  w.timestamp(r.createdUs);
  w.raw(K.updatedAt);
  w.timestamp(r.updatedUs);
  w.raw(K.startedAt);
  if (r.startedUs === null) w.raw(K.null);
  else w.timestamp(r.startedUs);
  w.raw(K.completedAt);
  if (r.completedUs === null) w.raw(K.null);
  else w.timestamp(r.completedUs);
  w.raw(K.duration);
  nullableInt(w, r.durationNs);
  w.raw(K.email);
  w.raw(ctx.literal(r.user.email));
  w.raw(K.endpoint);
  w.jsonString(r.endpoint);
  w.raw(K.ip);
  // IPv4 addresses come from a per-user pool; IPv6 ones are per call, so not worth caching.
  if (r.ip.includes(":")) w.jsonString(r.ip);
  else w.raw(ctx.literal(r.ip));
  w.raw(K.method);
  w.raw(ctx.literal(r.method));
  w.raw(K.minutes);
  nullableInt(w, r.minutes);
  w.raw(K.seconds);
  nullableInt(w, r.seconds);
  w.raw(K.orgId);
  if (r.user.orgId === null) w.raw(K.null);
  else w.raw(ctx.literal(r.user.orgId));
  w.raw(K.origin);
  w.raw(ctx.literal(r.origin));
  w.raw(K.price);
  if (r.priceMicros === null) w.raw(K.null);
  else if (priceAsString) {
    w.charCode(34);
    w.microDecimal(r.priceMicros);
    w.charCode(34);
  } else w.microDecimal(r.priceMicros);
  w.raw(K.query);
  w.jsonString(r.query);
  w.raw(K.status);
  nullableInt(w, r.statusCode);
  if (r.invoice !== "omitted") {
    w.raw(K.invoice);
    if (r.invoice === "empty") w.raw(K.emptyString);
    else if (ctx.perCallItems) w.jsonString(r.invoiceItem ?? "");
    // One item per billing account and month: a bounded pool, so cached as a literal.
    else w.raw(ctx.literal(r.invoiceItem ?? ""));
  }
  w.raw(K.token);
  w.raw(ctx.literal(r.token));
  w.raw(K.userAgent);
  w.raw(ctx.literal(r.userAgent));
  w.charCode(125);
}

function nullableInt(w: ByteWriter, value: number | null): void {
  if (value === null) w.raw(K.null);
  else w.int(value);
}
