import type { ReportConfig } from "../config/reportConfig.js";
import { ZooUsageError } from "../errors.js";
import { openWarehouse, type Warehouse } from "../load/database.js";
import { existingDatabase } from "../load/existingDatabase.js";
import { missingViews } from "../load/presentViews.js";
import { laggingRollupsNote } from "../load/unfinishedClasses.js";
import type { Logger } from "../log/logger.js";
import type { ReportFigures } from "./figures.js";
import { renderHtml } from "./html.js";
import { readReportFigures } from "./readFigures.js";
import { renderTerminal } from "./terminal.js";
import { writeFileAtomic } from "./writeAtomic.js";

export interface ReportEffects {
  stdout: (text: string) => void;
  logger: Logger;
  now: () => Date;
}

/** The views a report reads; the export creates them. */
const REQUIRED_VIEWS = ["cost_per_day", "cost_per_day_endpoint", "api_calls_enriched", "pending_billing"];

/**
 * `zoo-usage report`: reads the figures from the database, opened read-only (it works beside
 * other readers and never creates or changes anything), then prints them and optionally writes
 * the HTML page.
 */
export async function runReport(config: ReportConfig, effects: ReportEffects): Promise<ReportFigures> {
  const figures = await readFigures(config, effects);
  if (config.htmlPath !== null) {
    const written = await writeFileAtomic(config.htmlPath, renderHtml(figures));
    if (config.json) effects.logger.info(`HTML report written to ${written}`);
    else effects.stdout(`${renderTerminal(figures)}\n\nHTML report: ${written}`);
  } else if (!config.json) {
    effects.stdout(renderTerminal(figures));
  }
  if (config.json) effects.stdout(toJson(figures));
  return figures;
}

/** JSON with any stray bigint as a decimal string (JSON.stringify would throw on it). */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v), 2);
}

async function readFigures(config: ReportConfig, effects: ReportEffects): Promise<ReportFigures> {
  const dbPath = await existingDatabase(config.dbPath);
  const warehouse = await openWarehouse(dbPath, { readOnly: true });
  try {
    await requireViews(warehouse);
    // Opened read-only, the report cannot finish what a stopped export left: it says so instead.
    const lagging = await laggingRollupsNote(warehouse.connection);
    if (lagging !== undefined) effects.logger.warn(lagging);
    return await readReportFigures(warehouse, {
      from: config.from,
      to: config.to,
      top: config.top,
      showEmail: config.showEmail,
      generatedAt: effects.now(),
    });
  } finally {
    warehouse.close();
  }
}

async function requireViews(warehouse: Warehouse): Promise<void> {
  const missing = await missingViews(warehouse.connection, REQUIRED_VIEWS);
  if (missing.length > 0) {
    throw new ZooUsageError({
      code: "warehouse.unreadable",
      message: `${warehouse.path} is not a zoo-usage database: the view${missing.length > 1 ? "s" : ""} ${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} missing`,
      hint: "Point --db at the database `zoo-usage export` writes (an export of this version creates the views).",
    });
  }
}
