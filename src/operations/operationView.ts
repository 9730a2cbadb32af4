import { type AsyncOperation, isUnknownAsyncOperation } from "../api/schemas/index.js";
import { printableLines } from "../log/printable.js";
import { outputSizes } from "../transform/outputFiles.js";

/** The terminal statuses of ApiCallStatus: nothing changes after these. */
export const TERMINAL_STATUSES = new Set(["completed", "failed"]);

/** Fields common to every variant, shown in their own lines rather than with the variant's fields. */
const COMMON_FIELDS = new Set([
  "id",
  "type",
  "status",
  "user_id",
  "created_at",
  "updated_at",
  "started_at",
  "completed_at",
  "error",
  "outputs",
]);

/** A known variant or an unknown type's raw JSON, seen as one plain object. */
export function operationFields(operation: AsyncOperation): Record<string, unknown> {
  return isUnknownAsyncOperation(operation) ? operation.raw : operation;
}

/** Milliseconds between two RFC 3339 times, or undefined when either is missing. */
export function spanMs(from: unknown, to: unknown): number | undefined {
  if (typeof from !== "string" || typeof to !== "string") return undefined;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isNaN(ms) ? undefined : ms;
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return "-";
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * The human summary of `zoo-usage operation get`. Every value comes from the API, so escape
 * sequences in any of them (a prompt, an error, an output name) are neutralised for the terminal.
 */
export function describeOperation(operation: AsyncOperation): string {
  const fields = operationFields(operation);
  const lines: string[] = [];
  const unknownType = isUnknownAsyncOperation(operation);
  lines.push(`Operation ${String(fields.id ?? "?")}`);
  lines.push(
    `  type        ${String(fields.type ?? "?")}${unknownType ? " (a type this version does not know; shown raw)" : ""}`,
  );
  lines.push(`  status      ${String(fields.status ?? "?")}`);
  lines.push(`  created     ${String(fields.created_at ?? "-")}`);
  lines.push(`  started     ${String(fields.started_at ?? "-")}`);
  lines.push(`  completed   ${String(fields.completed_at ?? "-")}`);
  lines.push(`  queued for  ${formatDuration(spanMs(fields.created_at, fields.started_at))}`);
  lines.push(`  ran for     ${formatDuration(spanMs(fields.started_at, fields.completed_at))}`);
  for (const [key, value] of Object.entries(fields)) {
    if (COMMON_FIELDS.has(key) || value === undefined) continue;
    lines.push(`  ${key.padEnd(11)} ${formatValue(value)}`);
  }
  const files = outputSizes(fields);
  if (files.length > 0) {
    const total = files.reduce((sum, file) => sum + file.bytes, 0);
    lines.push(
      `  outputs     ${files.length} file${files.length === 1 ? "" : "s"}, ${formatBytes(total)} (--save-outputs DIR writes them)`,
    );
    for (const file of files) lines.push(`              ${file.name} (${formatBytes(file.bytes)})`);
  }
  if (typeof fields.error === "string" && fields.error !== "") lines.push(`  error       ${fields.error}`);
  return printableLines(lines.join("\n"));
}

/** Long text (prompts, KCL code) is cut so a summary stays a summary; --json shows everything. */
function formatValue(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const oneLine = text.replace(/\s+/g, " ");
  return oneLine.length > 120 ? `${oneLine.slice(0, 117)}...` : oneLine;
}
