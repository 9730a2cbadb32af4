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

/**
 * A value quoted as a SQL literal. Only sqlLiteral and sqlListLiteral make one, so fillSql can only
 * ever write a quoted value into SQL text, never an expression, a subquery or a clause.
 */
export class SqlLiteral {
  private constructor(readonly text: string) {}

  /** @internal */
  static quote(text: string): SqlLiteral {
    return new SqlLiteral(text);
  }
}

/** A string as a quoted SQL literal. */
export function sqlLiteral(value: string): SqlLiteral {
  return SqlLiteral.quote(quotedString(value));
}

/** A list of strings as a SQL list literal (`['a', 'b']`). */
export function sqlListLiteral(values: readonly string[]): SqlLiteral {
  return SqlLiteral.quote(`[${values.map((value) => quotedString(value)).join(", ")}]`);
}

/**
 * Fills `{{name}}` placeholders of a sql/ file with quoted literals, for the places DuckDB takes no
 * bound parameter (a table function's file name) or where a constant must be known when the query
 * is planned. A value that is not a SqlLiteral, or a name without a value, fails loudly.
 */
export function fillSql(template: string, literals: Readonly<Record<string, SqlLiteral>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const literal: unknown = literals[name];
    if (literal === undefined) throw new Error(`no value for {{${name}}} in SQL template`);
    if (!(literal instanceof SqlLiteral)) throw new Error(`{{${name}}} takes a quoted literal (sqlLiteral)`);
    return literal.text;
  });
}
