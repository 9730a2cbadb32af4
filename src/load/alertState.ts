import type { DuckDBConnection } from "./duckdb.js";
import { inTransaction } from "./transaction.js";

/** What `zoo-usage check` last reported of one alert (internal.alert_state). */
export interface ReportedAlert {
  rule: string;
  subject: string;
  period: string;
  value: string;
  reportedAt: Date;
}

/** The key of an alert in the state: its rule, subject and period. */
export function alertKey(alert: { rule: string; subject: string; period: string }): string {
  return JSON.stringify([alert.rule, alert.subject, alert.period]);
}

/**
 * The alerts reported before, by key. A database that has no alert state yet (written by a version
 * without it, and opened read-only since) has reported nothing.
 */
export async function readAlertState(connection: DuckDBConnection): Promise<Map<string, ReportedAlert>> {
  const exists = await connection.runAndReadAll(
    "SELECT count(*) AS n FROM duckdb_tables() WHERE schema_name = 'internal' AND table_name = 'alert_state' AND database_name = current_database()",
  );
  if (Number(exists.getRowObjectsJS()[0]?.n ?? 0) === 0) return new Map();
  const rows = (
    await connection.runAndReadAll(
      "SELECT rule, subject, period, value, strftime(reported_at, '%Y-%m-%dT%H:%M:%S.%fZ') AS reported_at FROM internal.alert_state",
    )
  ).getRowObjectsJS();
  return new Map(
    rows.map((row) => {
      const reported: ReportedAlert = {
        rule: String(row.rule),
        subject: String(row.subject),
        period: String(row.period),
        value: String(row.value),
        reportedAt: new Date(String(row.reported_at)),
      };
      return [alertKey(reported), reported];
    }),
  );
}

/** Records the alerts just reported, in one transaction (a second report replaces the first). */
export async function recordReportedAlerts(
  connection: DuckDBConnection,
  alerts: readonly ReportedAlert[],
): Promise<void> {
  await inTransaction(connection, async () => {
    for (const alert of alerts) {
      await connection.run(
        "INSERT OR REPLACE INTO internal.alert_state (rule, subject, period, value, reported_at) VALUES ($rule, $subject, $period, $value, $at::TIMESTAMPTZ)",
        {
          rule: alert.rule,
          subject: alert.subject,
          period: alert.period,
          value: alert.value,
          at: alert.reportedAt.toISOString(),
        },
      );
    }
  });
}
