import { readFile } from "node:fs/promises";
import { type TransformContext, transformApiCall } from "../transform/apiCallRow.js";
import type { DerivedValues } from "../transform/derivedValues.js";
import { POLICY_FIELDS, type PrivacyPolicy } from "../transform/privacy.js";
import { serializeRow } from "./apiCallBatch.js";
import type { Warehouse } from "./database.js";
import { quotedString } from "./duckdb.js";
import type { Spool } from "./spool.js";
import { fillSql, type SqlLiteral, sqlFile, sqlLiteral } from "./sqlFiles.js";

/**
 * The raw-items path of a batch: DuckDB reads its items file as the server sent it
 * (select_bulk_api_calls.sql) and joins in the values JavaScript derived for those records.
 */
export class RawApiCallItems {
  private readonly bulkSelectSql = sqlFile("statements/select_bulk_api_calls.sql");
  private readonly privacyLiterals: Record<string, SqlLiteral>;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly spool: Spool,
    privacy: PrivacyPolicy,
  ) {
    this.privacyLiterals = privacyLiterals(privacy);
  }

  /** Stages the batch's derived values and returns the SELECT that reads `itemsFile` as rows. */
  async select(derived: DerivedValues, itemsFile: string): Promise<string> {
    await this.stageDerived(derived);
    return fillSql(this.bulkSelectSql, { ...this.privacyLiterals, file: sqlLiteral(itemsFile) });
  }

  /** The values JavaScript derived for the batch's raw records, as the temp table the bulk SELECT joins. */
  private async stageDerived(derived: DerivedValues): Promise<void> {
    const { connection } = this.warehouse;
    const lines = derived.lines();
    if (lines.length === 0) {
      await connection.run(
        "CREATE OR REPLACE TEMP TABLE staged_derived (kind VARCHAR, raw VARCHAR, value VARCHAR)",
      );
      return;
    }
    const file = await this.spool.write("derived", lines);
    await connection.run(
      `CREATE OR REPLACE TEMP TABLE staged_derived AS SELECT * FROM read_json(${quotedString(file)}, format = 'newline_delimited', columns = {kind: 'VARCHAR', raw: 'VARCHAR', value: 'VARCHAR'})`,
    );
  }
}

/** The raw records of an items file, transformed and serialised as the row path does. */
export async function rowsOfItems(itemsFile: string, transform: TransformContext): Promise<string[]> {
  const items = JSON.parse(await readFile(itemsFile, "utf8")) as unknown[];
  return items.map((item) => {
    const result = transformApiCall(item, transform);
    // Every record of the file was validated on the way in; this cannot fail but must not hide.
    if (!result.ok) throw new Error(`a validated record no longer validates: ${result.reason}`);
    return serializeRow(result.row);
  });
}

/**
 * The literals of the bulk SELECT's privacy placeholders: each of token, email and ip_address is
 * kept as it is, dropped, or replaced by its hash joined in from staged_derived. As literals, DuckDB
 * folds each choice when it plans the query.
 */
function privacyLiterals(privacy: PrivacyPolicy): Record<string, SqlLiteral> {
  const literals: Record<string, SqlLiteral> = {};
  for (const { field, policy } of POLICY_FIELDS) literals[`${field}_policy`] = sqlLiteral(privacy[policy]);
  return literals;
}
