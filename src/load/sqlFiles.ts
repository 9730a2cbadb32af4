import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** sql/ sits at the package root, two levels above both src/load and dist/load. */
const SQL_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../sql");

/** The text of a file in sql/ (multi-line SQL lives there, not in TypeScript). */
export function sqlFile(name: string): string {
  return readFileSync(path.join(SQL_DIR, name), "utf8");
}

/**
 * Fills `{{name}}` placeholders of a sql/ file with already-quoted literals (quotedString), for the
 * places DuckDB takes no bound parameter (a table function's file name). Unknown names fail loudly.
 */
export function fillSql(template: string, literals: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const literal = literals[name];
    if (literal === undefined) throw new Error(`no value for {{${name}}} in SQL template`);
    return literal;
  });
}
