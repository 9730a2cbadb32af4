import { CommanderError } from "commander";
import { describe, expect, test } from "vitest";
import { buildProgram } from "../../src/cli/program.js";
import { type SimFlags, simulatorOptionsOf } from "../../src/cli/simAction.js";
import { ExitCode } from "../../src/errors.js";
import { startSimulator } from "../../src/sim/index.js";
import { QUIET_CLI_IO } from "../helpers/cli.js";
import { listInvoices } from "./billingTruth.js";
import { must } from "./helpers.js";

const NOW = new Date("2026-11-01T00:00:00Z");

/**
 * `zoo-usage sim <args>` parsed in-process by the real program, its action replaced by one that
 * keeps the flags; a refused command line is the CommanderError main maps to its exit code, with
 * what commander wrote to stderr.
 */
async function parseSim(
  args: string[],
): Promise<{ flags?: SimFlags; error?: CommanderError; stderr: string }> {
  const program = buildProgram(QUIET_CLI_IO, () => {});
  const sim = must(program.commands.find((command) => command.name() === "sim"));
  let flags: SimFlags | undefined;
  let stderr = "";
  sim.action((parsed: SimFlags) => {
    flags = parsed;
  });
  sim.configureOutput({ writeErr: (text) => (stderr += text), writeOut: () => {} });
  try {
    await program.parseAsync(["sim", ...args], { from: "user" });
    return { ...(flags === undefined ? {} : { flags }), stderr };
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { error, stderr };
  }
}

describe("the sim command's invoice flags", () => {
  test("each reaches the simulator's options, and the simulator serves them", async () => {
    const { flags, stderr } = await parseSim([
      ...["--port", "0", "--now", NOW.toISOString(), "--calls", "6000", "--days", "120", "--seed", "11"],
      ...["--invoice-tax", "line", "--invoice-discount", "item-net", "--invoice-currency", "gbp"],
      ...["--invoice-refund", "--partial-payment", "--customer-balance", "--void-reissue"],
    ]);
    expect(stderr).toBe("");
    const options = simulatorOptionsOf(must(flags), () => NOW);
    expect(options).toMatchObject({
      invoiceTax: "line",
      invoiceDiscount: "item-net",
      invoiceCurrency: "gbp",
      invoiceRefund: true,
      partialPayment: true,
      customerBalance: true,
      voidReissue: true,
    });
    const sim = await startSimulator(options);
    try {
      const invoices = await listInvoices(sim, "/user/payment/invoices", must(sim.users[0]).token);
      expect(invoices.map((invoice) => invoice.status)).toEqual(["void", "paid", "paid", "open"]);
      expect(invoices.every((invoice) => invoice.currency === "gbp")).toBe(true);
      expect(invoices[1]).toMatchObject({ refund_status: "partially_refunded" });
      expect(invoices[1]?.lines[0]?.description).toBe("Sales tax (8.25%)");
    } finally {
      await sim.close();
    }
  });

  test("without them, the options are today's: no new shape is asked for", async () => {
    const options = simulatorOptionsOf(must((await parseSim([])).flags), () => NOW);
    expect(options).toMatchObject({
      invoiceRefund: false,
      partialPayment: false,
      customerBalance: false,
      voidReissue: false,
    });
    for (const key of ["invoiceTax", "invoiceDiscount", "invoiceCurrency"])
      expect(options).not.toHaveProperty(key);
  });

  test.each([
    [["--invoice-currency", "jpy"], "--invoice-currency", "eur, gbp, cad"],
    [["--invoice-currency", "usd"], "--invoice-currency", "eur, gbp, cad"],
    [["--invoice-tax", "both"], "--invoice-tax", "amount, line"],
    [["--invoice-discount", "50%"], "--invoice-discount", "coupon, item-gross, item-net"],
  ])(
    "%j is refused, naming the flag and what it takes (a usage error: exit 2)",
    async (args, flag, allowed) => {
      const { flags, error, stderr } = await parseSim(args);
      expect(flags).toBeUndefined();
      // main maps every commander.* error to the usage exit code.
      expect(error?.code).toBe("commander.invalidArgument");
      expect(ExitCode.usage).toBe(2);
      expect(stderr).toContain(flag);
      expect(stderr).toContain(allowed);
    },
  );
});
