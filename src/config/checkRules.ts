import { ZooUsageError } from "../errors.js";

/** USD amounts are decimal text end to end (never a binary float): up to 12 digits, 6 decimals. */
const USD = /^\d{1,12}(\.\d{1,6})?$/;
const NUMBER = /^\d{1,9}(\.\d{1,6})?$/;

/** What `zoo-usage check` judges. A rule left out (undefined / empty) is not checked. */
export interface CheckRules {
  /** The monthly budget, with the share of it the actual and the forecast spend may reach (percent). */
  budget?: { usd: string; actualPercent: string; forecastPercent: string } | undefined;
  /** The last complete day's spend against the trailing median: same weekday, or the 28 days. */
  spike?: { factor: string; minUsd: string; baseline: "weekday" | "28d" } | undefined;
  /** Monthly budgets of one endpoint template, one member (email or user id), one token label. */
  subjectBudgets: SubjectBudget[];
  /** The credits' runway (credit_runway.runway_days) below this many days. */
  runwayDays?: string | undefined;
  /** A month whose reconciliation differs by more than this (absolute, in its currency; 0: any). */
  invoiceDifferenceUsd?: string | undefined;
  /** An invoice still owed this many days after it was made. */
  outstandingDays?: string | undefined;
  /** Any uncollectible invoice (what it left unpaid is written off). */
  uncollectible?: boolean | undefined;
  /** Any invoice with money refunded. */
  refund?: boolean | undefined;
  /** Any invoice in another currency than the calls' USD. */
  otherCurrency?: boolean | undefined;
  /** Calls still pending billing this many days after they were made. */
  pendingDays?: string | undefined;
  /** The last completed export run ended more than this many hours ago. */
  staleHours?: string | undefined;
}

export interface SubjectBudget {
  kind: "endpoint" | "member" | "token";
  subject: string;
  usd: string;
}

export const CHECK_DEFAULTS = {
  budgetActualPercent: "80",
  budgetForecastPercent: "100",
  spikeMinUsd: "10",
  spikeBaseline: "weekday",
  /** An alert already reported today is reported again when its value moved by more than this share. */
  repeatStepPercent: "10",
} as const;

/** Where a value came from, for the error: a flag, or a line and field of the rules file. */
type Where = string;

/** One `key=value` field of a rules line, the value plain or in double quotes ("CI token"). */
const FIELD = /^([a-z-]+)=(?:"((?:[^"\\]|\\.)*)"(?=\s|$)|([^"\s]\S*|)(?=\s|$))/;

/**
 * The rules file: one rule a line, `rule key=value ...`, a value with spaces in double quotes; blank
 * lines and `#` comments are skipped. Every error names the file's line and the field.
 */
export function parseRulesFile(text: string, file: string): CheckRules {
  const rules: CheckRules = { subjectBudgets: [] };
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/^\s+|\s+$/g, "");
    if (line === "" || line.startsWith("#")) return;
    const where = `${file} line ${index + 1}`;
    const rule = line.split(/\s+/)[0] ?? "";
    applyRule(rules, rule, parseFields(line.slice(rule.length).trim(), where, rule), where);
  });
  return rules;
}

function parseFields(text: string, where: Where, rule: string): Map<string, string> {
  const fields = new Map<string, string>();
  let rest = text;
  while (rest !== "") {
    const match = FIELD.exec(rest);
    if (match === null) {
      throw invalid(`${where}: ${rule}: expected key=value, got ${JSON.stringify(rest.split(/\s+/)[0])}`);
    }
    const [whole, key = "", quoted, plain] = match;
    if (fields.has(key)) throw invalid(`${where}: ${rule}: ${key} is given twice`);
    fields.set(key, quoted !== undefined ? quoted.replace(/\\(.)/g, "$1") : (plain ?? ""));
    rest = rest.slice(whole.length).trim();
  }
  return fields;
}

/** The keys each rule takes; the first ones listed without a default are required. */
const RULE_KEYS: Record<string, readonly string[]> = {
  budget: ["usd", "actual", "forecast"],
  spike: ["factor", "min", "baseline"],
  "endpoint-budget": ["endpoint", "usd"],
  "member-budget": ["member", "usd"],
  "token-budget": ["label", "usd"],
  runway: ["days"],
  "invoice-difference": ["usd"],
  outstanding: ["days"],
  uncollectible: [],
  refund: [],
  "other-currency": [],
  pending: ["days"],
  stale: ["hours"],
};

function applyRule(rules: CheckRules, rule: string, fields: Map<string, string>, where: Where): void {
  const keys = RULE_KEYS[rule];
  if (keys === undefined) {
    throw invalid(
      `${where}: unknown rule ${JSON.stringify(rule)}; rules are ${Object.keys(RULE_KEYS).join(", ")}`,
    );
  }
  for (const key of fields.keys()) {
    if (!keys.includes(key))
      throw invalid(`${where}: ${rule}: unknown field ${key}; it takes ${keys.join(", ")}`);
  }
  const at = (key: string) => `${where}: ${rule}: ${key}`;
  const required = (key: string) => {
    const value = fields.get(key);
    if (value === undefined || value === "") throw invalid(`${at(key)} is required`);
    return value;
  };
  switch (rule) {
    case "budget":
      rules.budget = {
        usd: usd(required("usd"), at("usd")),
        actualPercent: number(fields.get("actual") ?? CHECK_DEFAULTS.budgetActualPercent, at("actual")),
        forecastPercent: number(
          fields.get("forecast") ?? CHECK_DEFAULTS.budgetForecastPercent,
          at("forecast"),
        ),
      };
      return;
    case "spike":
      rules.spike = {
        factor: number(required("factor"), at("factor")),
        minUsd: usd(fields.get("min") ?? CHECK_DEFAULTS.spikeMinUsd, at("min")),
        baseline: baseline(fields.get("baseline") ?? CHECK_DEFAULTS.spikeBaseline, at("baseline")),
      };
      return;
    case "endpoint-budget":
    case "member-budget":
    case "token-budget": {
      const key = rule === "endpoint-budget" ? "endpoint" : rule === "member-budget" ? "member" : "label";
      rules.subjectBudgets.push({
        kind: rule === "endpoint-budget" ? "endpoint" : rule === "member-budget" ? "member" : "token",
        subject: required(key),
        usd: usd(required("usd"), at("usd")),
      });
      return;
    }
    case "runway":
      rules.runwayDays = number(required("days"), at("days"));
      return;
    case "invoice-difference":
      rules.invoiceDifferenceUsd = usd(fields.get("usd") ?? "0", at("usd"));
      return;
    case "outstanding":
      rules.outstandingDays = number(required("days"), at("days"));
      return;
    case "uncollectible":
      rules.uncollectible = true;
      return;
    case "refund":
      rules.refund = true;
      return;
    case "other-currency":
      rules.otherCurrency = true;
      return;
    case "pending":
      rules.pendingDays = number(required("days"), at("days"));
      return;
    case "stale":
      rules.staleHours = number(required("hours"), at("hours"));
      return;
  }
}

/** A USD amount as decimal text; `where` names the flag or the line and field. */
export function usd(value: string, where: Where): string {
  if (!USD.test(value)) {
    throw invalid(`${where} must be an amount of USD such as 500 or 12.50, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** A non-negative number as decimal text (percent, days, hours, a factor). */
export function number(value: string, where: Where): string {
  if (!NUMBER.test(value)) {
    throw invalid(`${where} must be a non-negative number such as 7 or 2.5, got ${JSON.stringify(value)}`);
  }
  return value;
}

export function baseline(value: string, where: Where): "weekday" | "28d" {
  if (value !== "weekday" && value !== "28d") {
    throw invalid(`${where} must be weekday or 28d, got ${JSON.stringify(value)}`);
  }
  return value;
}

export function invalid(message: string): ZooUsageError {
  return new ZooUsageError({
    code: "config.invalid",
    message: `Invalid check rules: ${message}`,
    hint: "See docs/check.md for the rules, their fields and an example file.",
  });
}
