import { ExitCode, type ExitCodeValue } from "../errors.js";
import type { SimulatorOptions } from "../sim/index.js";
import type { CliIo } from "./io.js";
import { type SimUsageShapeFlags, usageShapeOptionsOf } from "./simUsageShapeFlags.js";

/** The flags of `zoo-usage sim`, as commander hands them over (defaults filled in). */
export interface SimFlags extends SimUsageShapeFlags {
  host: string;
  port: number;
  seed: number;
  calls: number;
  days: number;
  users: number;
  apiTokens?: number;
  now?: Date;
  token?: string;
  priceAsString?: boolean;
  priceMode: "realistic" | "adversarial";
  recordOwnTraffic?: boolean;
  invoiceDisagreement?: boolean;
  missingInvoiceItem?: boolean;
  extraInvoiceLine?: boolean;
  invoiceItems: "per-month" | "per-call";
  subscription?: boolean;
  creditsOnInvoice: "none" | "line" | "discount";
  invoiceLinesLimit?: number;
  invoiceStatuses?: boolean;
  invoiceTax?: "amount" | "line";
  invoiceDiscount?: "coupon" | "item-gross" | "item-net";
  invoiceRefund?: boolean;
  partialPayment?: boolean;
  customerBalance?: boolean;
  invoiceCurrency?: string;
  voidReissue?: boolean;
  tieShare?: number;
  outputBytes?: number;
  lateBilling?: number;
  latencyMs?: number;
  rate429?: number;
  retryAfter?: number;
  rate5xx?: number;
  rateReset?: number;
  rateTruncated?: number;
  faultSeed?: number;
  seasonal?: boolean;
  spikeDay?: string;
  runwayGrantDays?: number;
}

/** `zoo-usage sim`: serves the simulator until the first stop (SIGINT or SIGTERM), then closes it. */
export async function simAction(flags: SimFlags, io: CliIo): Promise<ExitCodeValue> {
  const { runSimulator } = await import("../commands/simulate.js");
  // Taken over before the banner is printed: a stop sent as soon as it shows still closes cleanly.
  const stopped = new Promise<void>((resolve) =>
    io.stop?.takeOver({ first: () => resolve(), beforeForcedExit: () => {} }),
  );
  const close = await runSimulator(simulatorOptionsOf(flags, io.now), io.stdout);
  await stopped;
  await close();
  return ExitCode.ok;
}

/** The simulator's options the flags ask for; `clock` is the machine's. */
export function simulatorOptionsOf(flags: SimFlags, clock: () => Date): SimulatorOptions {
  return {
    host: flags.host,
    port: flags.port,
    seed: flags.seed,
    calls: flags.calls,
    days: flags.days,
    users: flags.users,
    // The machine's clock, as the export's, and running with it; a --now start stays put
    // until told to move, so a run from a given moment is repeatable.
    now: flags.now ?? clock(),
    ...(flags.now === undefined ? { wallClock: clock } : {}),
    firstUserToken: flags.token,
    ...(flags.apiTokens === undefined ? {} : { firstUserApiTokens: flags.apiTokens }),
    priceAsString: flags.priceAsString ?? false,
    priceMode: flags.priceMode,
    recordOwnTraffic: flags.recordOwnTraffic ?? false,
    invoiceDisagreement: flags.invoiceDisagreement ?? false,
    missingInvoiceItem: flags.missingInvoiceItem ?? false,
    extraInvoiceLine: flags.extraInvoiceLine ?? false,
    invoiceItems: flags.invoiceItems,
    subscription: flags.subscription ?? false,
    creditsOnInvoice: flags.creditsOnInvoice,
    invoiceStatuses: flags.invoiceStatuses ?? false,
    ...(flags.invoiceTax === undefined ? {} : { invoiceTax: flags.invoiceTax }),
    ...(flags.invoiceDiscount === undefined ? {} : { invoiceDiscount: flags.invoiceDiscount }),
    invoiceRefund: flags.invoiceRefund ?? false,
    partialPayment: flags.partialPayment ?? false,
    customerBalance: flags.customerBalance ?? false,
    ...(flags.invoiceCurrency === undefined ? {} : { invoiceCurrency: flags.invoiceCurrency }),
    voidReissue: flags.voidReissue ?? false,
    ...(flags.invoiceLinesLimit === undefined ? {} : { invoiceLinesLimit: flags.invoiceLinesLimit }),
    ...(flags.tieShare === undefined ? {} : { tieShare: flags.tieShare }),
    outputBytes: flags.outputBytes,
    ...(flags.lateBilling === undefined ? {} : { lateBilling: { share: flags.lateBilling } }),
    seasonal: flags.seasonal ?? true,
    ...(flags.spikeDay === undefined ? {} : { spikeDay: flags.spikeDay }),
    ...(flags.runwayGrantDays === undefined ? {} : { runwayGrantDays: flags.runwayGrantDays }),
    ...usageShapeOptionsOf(flags),
    faults: {
      latencyMs: flags.latencyMs,
      rate429: flags.rate429,
      retryAfterSeconds: flags.retryAfter,
      rate5xx: flags.rate5xx,
      rateReset: flags.rateReset,
      rateTruncated: flags.rateTruncated,
      faultSeed: flags.faultSeed,
    },
  };
}
