import { quotedString } from "@duckdb/node-api";

/** The columns of one GET /user/api-calls item, typed as the exporter types them. */
export const ITEM_COLUMNS = [
  ["id", "UUID"],
  ["user_id", "UUID"],
  ["created_at", "TIMESTAMPTZ"],
  ["updated_at", "TIMESTAMPTZ"],
  ["started_at", "TIMESTAMPTZ"],
  ["completed_at", "TIMESTAMPTZ"],
  ["duration", "BIGINT"],
  ["email", "VARCHAR"],
  ["endpoint", "VARCHAR"],
  ["ip_address", "VARCHAR"],
  ["method", "VARCHAR"],
  ["minutes", "INTEGER"],
  ["seconds", "INTEGER"],
  ["org_id", "UUID"],
  ["origin", "VARCHAR"],
  ["price", "DECIMAL(18,6)"],
  ["request_query_params", "VARCHAR"],
  ["status_code", "INTEGER"],
  ["stripe_invoice_item_id", "VARCHAR"],
  ["token", "UUID"],
  ["user_agent", "VARCHAR"],
];

/** Without a primary key, as zoo-usage's own api_calls table (sql/tables/api_calls.sql). */
export const CREATE_TABLE = `CREATE TABLE api_calls (${ITEM_COLUMNS.map(([name, type]) => `${name} ${type}`).join(", ")})`;

export function readJsonSql(file) {
  const columns = ITEM_COLUMNS.map(([name, type]) => `${name}: ${quotedString(type)}`).join(", ");
  return `INSERT INTO api_calls BY NAME SELECT * FROM read_json(${quotedString(file)}, format = 'newline_delimited', columns = {${columns}})`;
}
