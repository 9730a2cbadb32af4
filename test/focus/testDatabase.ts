import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { column, text } from "./sqlQuoting.js";

/** A column of a hand-made table: its name and DuckDB type. */
export interface TableColumn {
  name: string;
  type: string;
}

/** A row by column name; every value is written as text and cast to its column's type. */
export type TableRow = Readonly<Record<string, string | null>>;

export interface TestDatabase {
  connection: DuckDBConnection;
  close(): void;
}

/** An in-memory DuckDB whose session reads and writes timestamps in UTC. */
export async function openTestDatabase(): Promise<TestDatabase> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  return {
    connection,
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

/**
 * Creates `name` with `columns` and `rows`. Values go in as quoted text cast to the column's type, so
 * a decimal is never a binary float on its way in; a column a row does not name is NULL.
 */
export async function createTable(
  connection: DuckDBConnection,
  name: string,
  columns: readonly TableColumn[],
  rows: readonly TableRow[],
): Promise<void> {
  const definition = columns.map((c) => `${column(c.name)} ${c.type}`).join(", ");
  await connection.run(`CREATE OR REPLACE TABLE ${column(name)} (${definition})`);
  if (rows.length === 0) return;
  const values = rows.map((row) => {
    const cells = columns.map((c) => {
      const value = row[c.name] ?? null;
      return value === null ? `CAST(NULL AS ${c.type})` : `CAST(${text(value)} AS ${c.type})`;
    });
    return `(${cells.join(", ")})`;
  });
  const names = columns.map((c) => column(c.name)).join(", ");
  await connection.run(`INSERT INTO ${column(name)} (${names}) VALUES ${values.join(", ")}`);
}
