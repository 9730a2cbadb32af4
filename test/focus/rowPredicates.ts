import type { RowCheck } from "./modelSchema.js";
import { column, numberLiteral, text } from "./sqlQuoting.js";
import { UNIT_FORMAT_PATTERN } from "./unitFormat.js";

/**
 * One row check of the model as two SQL predicates over a row, the validator's for each check
 * function (focus_to_duckdb_converter.py): `violation`, true on a row that breaks the check (the
 * rows its requirement query counts), and `holds`, the positive form it compiles a Condition with.
 * A NULL the check does not speak of is neither: most checks say nothing of a NULL value.
 */
export interface RowPredicates {
  columns: readonly string[];
  violation: string;
  holds: string;
}

const DATETIME_TYPES = ["TIMESTAMP", "TIMESTAMP_NS", "TIMESTAMP WITH TIME ZONE", "DATE"].map(text).join(", ");
const ISO_UTC = "^[0-9]{4}-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z$";
const ISO_UTC_OPTIONAL_Z = "^[0-9]{4}-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]Z?$";
const NUMERIC = "^[+-]?([0-9]*[.])?[0-9]+([eE][+-]?[0-9]+)?$";
const ASCII = String.raw`^[\x00-\x7F]*$`;

/** The common shape: non-null values of `columns`, broken when `bad` holds. */
function onNonNull(columns: readonly string[], bad: string): RowPredicates {
  const present = columns.map((name) => `${column(name)} IS NOT NULL`).join(" AND ");
  return { columns, violation: `${present} AND (${bad})`, holds: `${present} AND NOT (${bad})` };
}

/** What a non-null value must not be, for the checks of one column. */
function badValue(check: RowCheck & { ColumnName: string }, currencyCodes: ReadonlySet<string>): string {
  const c = column(check.ColumnName);
  switch (check.CheckFunction) {
    case "TypeString":
      return `typeof(${c}) <> 'VARCHAR'`;
    case "TypeDecimal":
      // The validator lists 'DECIMAL', 'DOUBLE', 'FLOAT', but DuckDB's typeof names a DECIMAL column
      // with its width and scale ('DECIMAL(38,6)'), so a prefix match is what the list means.
      return `NOT (typeof(${c}) IN ('DOUBLE', 'FLOAT') OR typeof(${c}) LIKE 'DECIMAL(%')`;
    case "TypeDateTime":
      return `typeof(${c}) NOT IN (${DATETIME_TYPES}) AND NOT (${c}::VARCHAR ~ ${text(ISO_UTC)})`;
    case "FormatDateTime":
      return `typeof(${c}) NOT IN (${DATETIME_TYPES}) AND NOT (typeof(${c}) = 'VARCHAR' AND ${c}::VARCHAR ~ ${text(ISO_UTC_OPTIONAL_Z)} AND TRY_CAST(${c}::VARCHAR AS TIMESTAMP) IS NOT NULL)`;
    case "FormatNumeric":
      return `NOT (trim(${c}::VARCHAR) ~ ${text(NUMERIC)})`;
    case "FormatString":
      return `NOT (${c}::VARCHAR ~ ${text(ASCII)})`;
    case "FormatUnit":
      return `NOT regexp_matches(${c}::VARCHAR, ${text(UNIT_FORMAT_PATTERN)})`;
    case "FormatKeyValue":
      return `TRY_CAST(${c} AS JSON) IS NULL OR (typeof(${c}) = 'VARCHAR' AND NOT json_valid(${c}::VARCHAR))`;
    case "FormatCurrency":
      return `NOT (trim(${c}::VARCHAR) ~ '^[A-Z]{3}$')`;
    case "CheckNationalCurrency":
      return `trim(${c}::VARCHAR) NOT IN (${[...currencyCodes].sort().map(text).join(", ")})`;
    case "CheckDecimalValue":
      // The validator skips this check ("not yet implemented"); here a valid decimal is a value that
      // reads as a finite DOUBLE, so NaN, Infinity and text like '1,5' break it.
      return `NOT coalesce(isfinite(TRY_CAST(${c}::VARCHAR AS DOUBLE)), false)`;
    case "CheckGreaterOrEqualThanValue":
      return `${c} < ${numberLiteral(check.Value)}`;
    default:
      throw new Error(`${check.CheckFunction} is not a check of one column's values`);
  }
}

/**
 * CheckValue and CheckNotValue compare as text, as the validator does (`col != '0'`): DuckDB casts
 * the literal to the column's type, and a text column compares as text.
 */
function valueCheck(check: RowCheck & { CheckFunction: "CheckValue" | "CheckNotValue" }): RowPredicates {
  const c = column(check.ColumnName);
  const columns = [check.ColumnName];
  const wanted = check.Value === null ? undefined : text(String(check.Value));
  if (check.CheckFunction === "CheckValue") {
    return wanted === undefined
      ? { columns, violation: `${c} IS NOT NULL`, holds: `${c} IS NULL` }
      : { columns, violation: `${c} <> ${wanted}`, holds: `${c} = ${wanted}` };
  }
  return wanted === undefined
    ? { columns, violation: `${c} IS NULL`, holds: `${c} IS NOT NULL` }
    : {
        columns,
        violation: `(${c} IS NOT NULL AND ${c} = ${wanted})`,
        holds: `(${c} IS NOT NULL AND ${c} <> ${wanted})`,
      };
}

export function rowPredicates(check: RowCheck, currencyCodes: ReadonlySet<string>): RowPredicates {
  switch (check.CheckFunction) {
    case "CheckValue":
    case "CheckNotValue":
      return valueCheck(check);
    case "CheckSameValue":
    case "CheckNotSameValue": {
      const [a, b] = [column(check.ColumnAName), column(check.ColumnBName)];
      const bad = check.CheckFunction === "CheckSameValue" ? `${a} <> ${b}` : `${a} = ${b}`;
      return onNonNull([check.ColumnAName, check.ColumnBName], bad);
    }
    case "ColumnByColumnEqualsColumnValue": {
      const [a, b, result] = [check.ColumnAName, check.ColumnBName, check.ResultColumnName];
      return onNonNull([a, b, result], `(${column(a)} * ${column(b)}) <> ${column(result)}`);
    }
    default:
      return onNonNull([check.ColumnName], badValue(check, currencyCodes));
  }
}
