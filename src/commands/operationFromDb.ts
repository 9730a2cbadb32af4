import { ExitCode, type ExitCodeValue, ZooUsageError } from "../errors.js";
import { openWarehouse } from "../load/database.js";
import { isoTimeSql } from "../log/isoTime.js";
import { printableLines } from "../log/printable.js";
import { formatBytes, formatDuration } from "../operations/operationView.js";
import { jsonForTerminal } from "../report/escapeHtml.js";

/** Columns shown in their own lines, or not at all, in the summary. */
const SUMMARY_COLUMNS = new Set(["id", "operation_type", "status", "outputs", "queue_ms", "run_ms", "error"]);

/**
 * `zoo-usage operation get --from-db`: what the warehouse holds for an id, read-only, so it works
 * without a token or network and while nothing writes the database.
 */
export async function runOperationFromDb(
  options: { id: string; dbPath: string; json: boolean },
  stdout: (text: string) => void,
): Promise<ExitCodeValue> {
  const warehouse = await openWarehouse(options.dbPath, { readOnly: true });
  let row: Record<string, unknown> | undefined;
  try {
    // Every TIMESTAMPTZ column in the one instant format of the CLI's output, not DuckDB's "+00" text.
    const times = await warehouse.connection.runAndReadAll(
      "SELECT column_name FROM duckdb_columns() WHERE schema_name = current_schema() AND table_name = 'async_operations' AND data_type = 'TIMESTAMP WITH TIME ZONE'",
    );
    const timeColumns = times
      .getRows()
      .map(([name]) => `${isoTimeSql(`"${String(name)}"`)} AS "${String(name)}"`);
    const reader = await warehouse.connection.runAndReadAll(
      `SELECT * REPLACE (outputs::VARCHAR AS outputs, details::VARCHAR AS details, raw_unknown::VARCHAR AS raw_unknown${timeColumns.map((column) => `, ${column}`).join("")}) FROM async_operations WHERE id = TRY_CAST($id AS UUID)`,
      { id: options.id },
    );
    row = reader.getRowObjectsJson()[0] as Record<string, unknown> | undefined;
  } finally {
    warehouse.close();
  }
  if (row === undefined) {
    throw new ZooUsageError({
      code: "operation.not_in_warehouse",
      message: `The database ${warehouse.path} holds no async operation ${options.id}`,
      hint: "Run `zoo-usage export` first (without --no-operations), or drop --from-db to ask the API.",
      exitCode: ExitCode.api,
    });
  }
  const fields = Object.fromEntries(
    Object.entries(row).map(([key, value]) => [
      key,
      isJsonColumn(key) && typeof value === "string" ? JSON.parse(value) : value,
    ]),
  );
  // The warehouse holds API data as received: escape sequences are neutralised for the terminal.
  stdout(options.json ? jsonForTerminal(fields) : printableLines(describeStored(fields)));
  if (fields.fetch_status === "not_found" || fields.fetch_status === "rejected") return ExitCode.api;
  return fields.status === "failed" ? ExitCode.operationFailed : ExitCode.ok;
}

function isJsonColumn(key: string): boolean {
  return key === "outputs" || key === "details" || key === "raw_unknown";
}

function describeStored(fields: Record<string, unknown>): string {
  const lines = [`Operation ${String(fields.id)} (from the warehouse)`];
  if (fields.fetch_status === "not_found") {
    lines.push("  not found: the API answered 404 for this id (wrong id, or not this user's operation)");
    return lines.join("\n");
  }
  if (fields.fetch_status === "rejected") {
    lines.push("  rejected: the API's body could not be stored; the rejects table says why");
    return lines.join("\n");
  }
  lines.push(`  type        ${String(fields.operation_type)}`);
  lines.push(`  status      ${String(fields.status)}`);
  lines.push(`  queued for  ${formatDuration(numberOrUndefined(fields.queue_ms))}`);
  lines.push(`  ran for     ${formatDuration(numberOrUndefined(fields.run_ms))}`);
  for (const [key, value] of Object.entries(fields)) {
    if (SUMMARY_COLUMNS.has(key) || value === null || value === undefined) continue;
    const text = typeof value === "string" ? value : JSON.stringify(value);
    lines.push(`  ${key.padEnd(22)} ${text.length > 120 ? `${text.slice(0, 117)}...` : text}`);
  }
  const outputs = Array.isArray(fields.outputs) ? (fields.outputs as { name: string; bytes: number }[]) : [];
  if (outputs.length > 0) {
    const total = outputs.reduce((sum, file) => sum + file.bytes, 0);
    lines.push(
      `  outputs     ${outputs.length} file(s), ${formatBytes(total)} (names and sizes only: files are not stored)`,
    );
  }
  if (typeof fields.error === "string" && fields.error !== "") lines.push(`  error       ${fields.error}`);
  return lines.join("\n");
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" ? Math.round(value) : undefined;
}
