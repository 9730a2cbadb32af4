/**
 * The currencies an invoice can be written in besides USD (SimulatorOptions.invoiceCurrency, flag
 * --invoice-currency), each with a fixed rate from USD in hundredths. The rates are round figures
 * of the simulator's own, not market rates: what matters to the exporter is that an invoice's
 * amounts are in a currency other than its calls' prices. No imports, so that the CLI can list
 * the codes in its help without loading the simulator.
 */
export const RATES_PER_HUNDRED = { eur: 92, gbp: 79, cad: 136 } as const;

export type InvoiceCurrencyCode = keyof typeof RATES_PER_HUNDRED;

/** The codes, lowercase as Stripe writes them ("eur"). */
export const INVOICE_CURRENCIES = Object.keys(RATES_PER_HUNDRED) as InvoiceCurrencyCode[];
