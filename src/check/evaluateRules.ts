import type { CheckRules, SubjectBudget } from "../config/checkRules.js";
import { epochDay } from "../forecast/epochDay.js";
import { readDailySeries } from "../forecast/readDailySeries.js";
import type { DuckDBConnection } from "../load/duckdb.js";
import { sqlFile } from "../load/sqlFiles.js";
import type { Alert, AlertUnit } from "./alert.js";
import { budgetAlerts, spikeAlerts } from "./forecastRules.js";

/** When the check judges: as of the start of UTC day asOf (YYYY-MM-DD), at the instant now. */
export interface CheckMoment {
  asOf: string;
  now: Date;
}

/**
 * Every rule against the warehouse, in a fixed order: budget, spike, per-subject budgets, runway,
 * invoice differences, outstanding, uncollectible, refunded and other-currency invoices, pending
 * billing, stale export. The budget and spike rules judge the daily spend with the forecast's
 * robust statistics (forecastRules.ts); each other rule is one sql/check/ file.
 */
export async function evaluateRules(
  connection: DuckDBConnection,
  rules: CheckRules,
  moment: CheckMoment,
): Promise<Alert[]> {
  const alerts: Alert[] = [];
  const asOf = moment.asOf;
  const now = moment.now.toISOString();
  if (rules.budget !== undefined || rules.spike !== undefined) {
    // The forecast and the spike rule read the complete days only: never the day of the clock.
    const series = await readDailySeries(connection, asOf);
    const asOfDay = epochDay(asOf);
    if (rules.budget !== undefined) alerts.push(...budgetAlerts(series, asOfDay, rules.budget));
    if (rules.spike !== undefined) alerts.push(...spikeAlerts(series, asOfDay, rules.spike));
  }
  for (const budget of rules.subjectBudgets) {
    const alert = await subjectBudget(connection, budget, asOf);
    if (alert !== undefined) alerts.push(alert);
  }
  if (rules.runwayDays !== undefined) {
    alerts.push(
      ...(await fired(connection, "check/runway.sql", "credits", "days", { days: rules.runwayDays })),
    );
  }
  if (rules.invoiceDifferenceUsd !== undefined) {
    alerts.push(
      ...(await fired(connection, "check/invoice_difference.sql", "invoice", "usd", {
        as_of: asOf,
        usd: rules.invoiceDifferenceUsd,
      })),
    );
  }
  if (rules.outstandingDays !== undefined) {
    alerts.push(
      ...(await fired(connection, "check/outstanding.sql", "invoice", "days", {
        now,
        days: rules.outstandingDays,
      })),
    );
  }
  if (rules.uncollectible === true)
    alerts.push(...(await fired(connection, "check/uncollectible.sql", "invoice", "usd", {})));
  if (rules.refund === true)
    alerts.push(...(await fired(connection, "check/refund.sql", "invoice", "usd", {})));
  if (rules.otherCurrency === true)
    alerts.push(...(await fired(connection, "check/other_currency.sql", "invoice", "usd", {})));
  if (rules.pendingDays !== undefined) {
    alerts.push(
      ...(await fired(connection, "check/pending.sql", "billing", "calls", { now, days: rules.pendingDays })),
    );
  }
  if (rules.staleHours !== undefined) {
    alerts.push(
      ...(await fired(connection, "check/stale.sql", "export", "hours", { now, hours: rules.staleHours })),
    );
  }
  return alerts;
}

/**
 * The rows a rule's file returns (rule, period, value, threshold, note, and where a row names them
 * its own subject and unit), as alerts.
 */
async function fired(
  connection: DuckDBConnection,
  file: string,
  subject: string,
  unit: AlertUnit,
  values: Record<string, string>,
): Promise<Alert[]> {
  const rows = (await connection.runAndReadAll(sqlFile(file), values)).getRowObjectsJS();
  return rows.map((row) => ({
    rule: String(row.rule),
    subject: typeof row.subject === "string" ? row.subject : subject,
    value: String(row.value),
    threshold: String(row.threshold),
    period: String(row.period),
    unit: row.value === "never" ? "hours" : typeof row.unit === "string" ? row.unit.toLowerCase() : unit,
    note: row.note === null ? "" : String(row.note),
    amounts: amountsOf(row.amounts),
  }));
}

/** A rule's `amounts` column (a STRUCT of decimal texts), as the alert's amounts. */
function amountsOf(value: unknown): Record<string, string> | undefined {
  if (value === null || typeof value !== "object") return undefined;
  return Object.fromEntries(Object.entries(value).map(([name, exact]) => [name, String(exact)]));
}

const SUBJECT_RULE = { endpoint: "endpoint-budget", member: "member-budget", token: "token-budget" } as const;

/** One subject's month-to-date spend against its budget; reaching the budget fires. */
async function subjectBudget(
  connection: DuckDBConnection,
  budget: SubjectBudget,
  asOf: string,
): Promise<Alert | undefined> {
  const rows = (
    await connection.runAndReadAll(sqlFile("check/subject_spend.sql"), {
      as_of: asOf,
      kind: budget.kind,
      subject: budget.subject,
      budget: budget.usd,
    })
  ).getRowObjectsJS();
  const row = rows[0];
  if (row === undefined || row.over !== true) return undefined;
  return {
    rule: SUBJECT_RULE[budget.kind],
    subject: budget.subject,
    value: String(row.usd),
    threshold: budget.usd,
    period: String(row.period),
    unit: "usd",
    note: "month to date",
  };
}
