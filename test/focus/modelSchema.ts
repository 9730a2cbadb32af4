import { z } from "zod";

/**
 * The shape of the FinOps Foundation validator's rules model (spec/focus/model-1.2.json), strict so
 * that a newer model with a check function or a key this runner does not know fails to load instead
 * of being checked by half.
 */

export const KEYWORDS = ["MUST", "MUST NOT", "SHOULD", "SHOULD NOT", "RECOMMENDED", "MAY"] as const;
export type Keyword = (typeof KEYWORDS)[number];

/** The check functions that take one column and nothing else. */
const COLUMN_FUNCTIONS = [
  "ColumnPresent",
  "TypeString",
  "TypeDecimal",
  "TypeDateTime",
  "FormatDateTime",
  "FormatNumeric",
  "FormatString",
  "FormatUnit",
  "FormatKeyValue",
  "FormatCurrency",
  "CheckNationalCurrency",
  "CheckDecimalValue",
] as const;

export interface ColumnCheck {
  CheckFunction: (typeof COLUMN_FUNCTIONS)[number];
  ColumnName: string;
}
export interface ValueCheck {
  CheckFunction: "CheckValue" | "CheckNotValue";
  ColumnName: string;
  Value: string | number | null;
}
export interface MinimumCheck {
  CheckFunction: "CheckGreaterOrEqualThanValue";
  ColumnName: string;
  Value: number;
}
export interface PairCheck {
  CheckFunction: "CheckSameValue" | "CheckNotSameValue";
  ColumnAName: string;
  ColumnBName: string;
}
export interface ProductCheck {
  CheckFunction: "ColumnByColumnEqualsColumnValue";
  ColumnAName: string;
  ColumnBName: string;
  ResultColumnName: string;
}
export interface DistinctCountCheck {
  CheckFunction: "CheckDistinctCount";
  ColumnAName: string;
  ColumnBName: string;
  ExpectedCount: number;
}
export interface RuleReference {
  CheckFunction: "CheckModelRule";
  ModelRuleId: string;
}
export interface Combination {
  CheckFunction: "AND" | "OR";
  Items: Check[];
}
export type Check =
  | ColumnCheck
  | ValueCheck
  | MinimumCheck
  | PairCheck
  | ProductCheck
  | DistinctCountCheck
  | RuleReference
  | Combination;

/** The checks that hold or fail row by row, and so combine with AND and OR inside one row. */
export type RowCheck = Exclude<Check, DistinctCountCheck | RuleReference | Combination> & {
  CheckFunction: Exclude<Check["CheckFunction"], "ColumnPresent">;
};

/**
 * Four Conditions of the 1.2 model are misshapen, and the validator drops each (no row filter) where
 * it finds a required key missing. Their intent is plain, so they are read as meant:
 * ResourceId-C-006-C and ResourceType-C-005-C name their column `CheckCondition` instead of
 * `ColumnName`; CapacityReservationStatus-C-003-C and -C-004-C write `{"AND": item or items}`
 * instead of `{"CheckFunction": "AND", "Items": [...]}`.
 */
function readMisshapenCheck(raw: unknown): unknown {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return raw;
  const keys = Object.keys(raw);
  if (keys.length === 1 && (keys[0] === "AND" || keys[0] === "OR")) {
    const items: unknown = Object.values(raw)[0];
    return { CheckFunction: keys[0], Items: Array.isArray(items) ? items : [items] };
  }
  if (!("CheckCondition" in raw) || "ColumnName" in raw) return raw;
  const { CheckCondition, ...rest } = raw;
  return { ...rest, ColumnName: CheckCondition };
}

const value = z.union([z.string(), z.number(), z.null()]);

export const checkSchema: z.ZodType<Check> = z.lazy(() =>
  z.preprocess(
    readMisshapenCheck,
    z.union([
      // TypeDateTime sometimes says which type it means; it is the only one it can mean.
      z.strictObject({
        CheckFunction: z.enum(COLUMN_FUNCTIONS),
        ColumnName: z.string(),
        ExpectedType: z.literal("DateTime").optional(),
      }),
      z.strictObject({
        CheckFunction: z.enum(["CheckValue", "CheckNotValue"]),
        ColumnName: z.string(),
        Value: value,
      }),
      z.strictObject({
        CheckFunction: z.literal("CheckGreaterOrEqualThanValue"),
        ColumnName: z.string(),
        Value: z.number(),
      }),
      z.strictObject({
        CheckFunction: z.enum(["CheckSameValue", "CheckNotSameValue"]),
        ColumnAName: z.string(),
        ColumnBName: z.string(),
      }),
      z.strictObject({
        CheckFunction: z.literal("ColumnByColumnEqualsColumnValue"),
        ColumnAName: z.string(),
        ColumnBName: z.string(),
        ResultColumnName: z.string(),
      }),
      z.strictObject({
        CheckFunction: z.literal("CheckDistinctCount"),
        ColumnAName: z.string(),
        ColumnBName: z.string(),
        ExpectedCount: z.number().int(),
      }),
      z.strictObject({ CheckFunction: z.literal("CheckModelRule"), ModelRuleId: z.string() }),
      z.strictObject({ CheckFunction: z.enum(["AND", "OR"]), Items: z.array(checkSchema).min(1) }),
    ]),
  ),
);

/** A Requirement or Condition: a check, or `{}` when there is none. */
const optionalCheck = z.union([z.strictObject({}).transform(() => undefined), checkSchema]);

export const ruleSchema = z.strictObject({
  Function: z.enum(["Composite", "Validation", "Nullability", "Presence", "Type", "Format"]),
  Reference: z.string(),
  EntityType: z.enum(["Column", "Attribute", "Dataset"]),
  Notes: z.string().nullable(),
  ModelVersionIntroduced: z.string(),
  // Every rule of the 1.2 model is Active; another status would need a decision, so it fails to load.
  Status: z.literal("Active"),
  ApplicabilityCriteria: z.array(z.string()),
  Type: z.enum(["Static", "Dynamic"]),
  ValidationCriteria: z.strictObject({
    MustSatisfy: z.string(),
    Keyword: z.enum(KEYWORDS),
    Requirement: optionalCheck,
    Condition: optionalCheck,
    Dependencies: z.array(z.string()),
  }),
});

export const modelSchema = z.object({
  Details: z.object({ ModelVersion: z.string(), FOCUSVersion: z.string() }),
  ApplicabilityCriteria: z.record(z.string(), z.object({ Description: z.string() })),
  ModelRules: z.record(z.string(), ruleSchema),
});
