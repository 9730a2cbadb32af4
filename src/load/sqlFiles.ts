import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { quotedString } from "./duckdb.js";

/** sql/ sits at the package root, two levels above both src/load and dist/load. */
const SQL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../sql");

/** The text of a file in sql/ (multi-line SQL lives there, not in TypeScript). */
export function sqlFile(name: string): string {
  return readFileSync(path.join(SQL_DIR, name), "utf8");
}

declare const literalBrand: unique symbol;

/**
 * A value quoted as a SQL literal. Only sqlLiteral and sqlListLiteral make one (the brand keeps
 * other code from typing one, the set from forging one at run time), so fillSql can only ever write
 * a quoted value into SQL text, never an expression, a subquery or a clause.
 */
export interface SqlLiteral {
  readonly text: string;
  readonly [literalBrand]: true;
}

const madeHere = new WeakSet<object>();

function literal(text: string): SqlLiteral {
  const made = Object.freeze({ text }) as SqlLiteral;
  madeHere.add(made);
  return made;
}

/** A string as a quoted SQL literal. */
export function sqlLiteral(value: string): SqlLiteral {
  return literal(quotedString(value));
}

/** A list of strings as a SQL list literal (`['a', 'b']`). */
export function sqlListLiteral(values: readonly string[]): SqlLiteral {
  return literal(`[${values.map((value) => quotedString(value)).join(", ")}]`);
}

/**
 * Fills `{{name}}` placeholders of a sql/ file with quoted literals, for the places DuckDB takes no
 * bound parameter (a table function's file name) or where a constant must be known when the query
 * is planned. A value that is not a SqlLiteral, or a name without a value, fails loudly.
 */
export function fillSql(template: string, literals: Readonly<Record<string, SqlLiteral>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value: SqlLiteral | undefined = literals[name];
    if (value === undefined) throw new Error(`no value for {{${name}}} in SQL template`);
    if (!madeHere.has(value)) throw new Error(`{{${name}}} takes a quoted literal (sqlLiteral)`);
    return value.text;
  });
}
