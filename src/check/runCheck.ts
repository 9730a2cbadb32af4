import type { CheckConfig } from "../config/checkConfig.js";
import { ExitCode, type ExitCodeValue, ZooUsageError } from "../errors.js";
import { alertKey, readAlertState, recordReportedAlerts } from "../load/alertState.js";
import { openWarehouse, type Warehouse } from "../load/database.js";
import { existingDatabase } from "../load/existingDatabase.js";
import { missingViews } from "../load/presentViews.js";
import { laggingRollupsNote } from "../load/unfinishedClasses.js";
import type { Logger } from "../log/logger.js";
import { counted } from "../log/plural.js";
import { type Alert, alertJson, alertLine } from "./alert.js";
import { backtestReport } from "./backtestReport.js";
import { evaluateRules } from "./evaluateRules.js";
import { isDue } from "./repeatRule.js";

export interface CheckEffects {
  stdout: (text: string) => void;
  logger: Logger;
  now: () => Date;
}

/** The views the rules read; an export of this version creates them. */
const REQUIRED_VIEWS = ["cost_per_day", "forecast_month", "credit_runway", "monthly_reconciliation"];

/**
 * `zoo-usage check`: judges the rules on the warehouse, opened read-only (beside other readers,
 * never beside a running export), and prints the alerts due: those not reported yet today, or
 * whose value moved by more than the step since (every alert with --all). Then, only when it
 * reported something on its own clock (not with --all, not a --now preview: a preview of a past or
 * future night must neither resend nor silence what the real check reports), it opens the database
 * for writing for the one transaction that records them in internal.alert_state; a database
 * another process holds by then is left as it is, with a warning: the alerts are printed all the
 * same, and may be again.
 * Exit 0 when nothing is reported, 1 (ExitCode.alert) when something is.
 */
export async function runCheck(config: CheckConfig, effects: CheckEffects): Promise<ExitCodeValue> {
  const dbPath = await existingDatabase(config.dbPath);
  const now = config.now ?? effects.now();
  const warehouse = await openWarehouse(dbPath, { readOnly: true });
  let alerts: Alert[];
  let state: Awaited<ReturnType<typeof readAlertState>>;
  try {
    await requireViews(warehouse);
    // Opened read-only, check judges the rollups as a stopped export left them: it says so.
    const lagging = await laggingRollupsNote(warehouse.connection);
    if (lagging !== undefined) effects.logger.warn(lagging);
    if (config.backtest) {
      effects.stdout(await backtestReport(warehouse.connection, config.json));
      return ExitCode.ok;
    }
    alerts = await evaluateRules(warehouse.connection, config.rules, { asOf: utcDay(now), now });
    state = await readAlertState(warehouse.connection);
  } finally {
    warehouse.close();
  }
  const due = config.all
    ? alerts
    : alerts.filter((alert) => isDue(alert, state.get(alertKey(alert)), now, config.repeatStepPercent));
  const quiet = alerts.length - due.length;
  if (quiet > 0) effects.logger.debug(`${counted(quiet, "alert")} already reported today (--all shows them)`);
  if (due.length === 0) return ExitCode.ok;
  const preview = config.all || config.now !== null;
  if (!preview) await recordState(dbPath, due, now, effects.logger);
  for (const alert of due) effects.stdout(config.json ? alertJson(alert) : alertLine(alert));
  return ExitCode.alert;
}

async function recordState(
  dbPath: string,
  alerts: readonly Alert[],
  now: Date,
  logger: Logger,
): Promise<void> {
  let warehouse: Warehouse;
  try {
    warehouse = await openWarehouse(dbPath);
  } catch (error) {
    if (error instanceof ZooUsageError && error.code === "warehouse.locked") {
      logger.warn(`${error.message}: the alerts are not recorded, and the next check reports them again`);
      return;
    }
    throw error;
  }
  try {
    await recordReportedAlerts(
      warehouse.connection,
      alerts.map(({ rule, subject, period, value }) => ({ rule, subject, period, value, reportedAt: now })),
    );
  } finally {
    warehouse.close();
  }
}

function utcDay(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

async function requireViews(warehouse: Warehouse): Promise<void> {
  const missing = await missingViews(warehouse.connection, REQUIRED_VIEWS);
  if (missing.length > 0) {
    throw new ZooUsageError({
      code: "warehouse.unreadable",
      message: `${warehouse.path} lacks the view${missing.length > 1 ? "s" : ""} ${missing.join(", ")} the check reads`,
      hint: "Run `zoo-usage export` of this version once: opening the database creates the views.",
    });
  }
}
