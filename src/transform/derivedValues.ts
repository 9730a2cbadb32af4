import type { ApiCallWithPrice } from "../api/schemas/index.js";
import type { TransformContext } from "./apiCallRow.js";
import { POLICY_FIELDS, type PolicyField } from "./privacy.js";

/** The raw fields whose stored value JavaScript computes for a bulk-loaded batch. */
export type DerivedKind = "endpoint" | PolicyField;

/**
 * For a batch whose records DuckDB reads raw (isBulkLoadable): the values JavaScript computes and
 * DuckDB joins in, once per distinct raw value: endpoint templates, and the hashes of the fields
 * whose privacy policy is "hash". A user has a handful of tokens and emails; endpoints repeat
 * except for the ones carrying an id.
 */
export class DerivedValues {
  private readonly values = new Map<DerivedKind, Map<string, string>>();
  private readonly hashed: readonly DerivedKind[];

  constructor(private readonly context: TransformContext) {
    this.hashed = POLICY_FIELDS.filter(({ policy }) => context.privacy[policy] === "hash").map(
      ({ field }) => field,
    );
    for (const kind of ["endpoint", ...this.hashed] as DerivedKind[]) this.values.set(kind, new Map());
  }

  /** Notes what one bulk-loaded call needs. */
  add(call: ApiCallWithPrice): void {
    if (call.endpoint !== undefined && call.endpoint !== null) {
      const templates = this.values.get("endpoint") as Map<string, string>;
      if (!templates.has(call.endpoint)) {
        templates.set(call.endpoint, this.context.templater.templateOf(call.endpoint));
      }
    }
    for (const kind of this.hashed) {
      const value = call[kind];
      if (value === undefined || value === null) continue;
      const hashes = this.values.get(kind) as Map<string, string>;
      if (!hashes.has(value)) hashes.set(value, this.context.secrets.hash(value));
    }
  }

  /** NDJSON lines {kind, raw, value} for the staged_derived table. */
  lines(): string[] {
    const lines: string[] = [];
    for (const [kind, map] of this.values) {
      for (const [raw, value] of map) lines.push(JSON.stringify({ kind, raw, value }));
    }
    return lines;
  }
}
