import { quotedIdentifier, quotedString } from "@duckdb/node-api";

/**
 * The only way a rule's names and values enter SQL: a column as a quoted identifier, a value as a
 * quoted string or a finite number. The relation itself is SQL text the caller writes.
 */

export function column(name: string): string {
  return quotedIdentifier(name);
}

export function text(value: string): string {
  return quotedString(value);
}

export function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return String(value);
}
