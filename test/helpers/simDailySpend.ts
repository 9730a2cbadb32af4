import { DuckDBInstance } from "@duckdb/node-api";
import { schemaStatements } from "../../src/load/schemaFiles.js";
import { billingOf } from "../../src/sim/billing.js";
import { kindOf } from "../../src/sim/callFacts.js";
import { Dataset, type DatasetOptions } from "../../src/sim/dataset.js";

const US_PER_DAY = 86_400_000_000;

/**
 * The simulator's truth per UTC day, without HTTP or an export: each visible call's price summed in
 * whole micro-dollars, as "YYYY-MM-DD" -> USD decimal text.
 */
export function simDailySpend(options: DatasetOptions): Map<string, string> {
  const dataset = new Dataset(options);
  const nowUs = dataset.initialNow.getTime() * 1000;
  const calls = dataset.timeline.countCreatedBy(nowUs);
  const micros = new Map<number, number>();
  for (let i = 0; i < calls; i++) {
    const createdUs = dataset.timeline.createdAt(i);
    const price = billingOf(dataset.seed, i, createdUs, kindOf(dataset.seed, i), dataset.priceMode).price
      .micros;
    const day = Math.floor(createdUs / US_PER_DAY);
    micros.set(day, (micros.get(day) ?? 0) + (price ?? 0));
  }
  const days = new Map<string, string>();
  for (const [day, total] of [...micros.entries()].sort(([a], [b]) => a - b)) {
    const text = String(total).padStart(7, "0");
    days.set(new Date(day * 86_400_000).toISOString().slice(0, 10), `${text.slice(0, -6)}.${text.slice(-6)}`);
  }
  return days;
}

/**
 * An in-memory DuckDB holding `days` as cost_per_day (a table standing in for the warehouse's view),
 * an empty runs table, and the forecast's macros and views, as the warehouse has them.
 */
export async function forecastDatabase(days: Map<string, string>) {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  await connection.run("CREATE TABLE cost_per_day (day DATE, cost_usd DECIMAL(38, 6))");
  const values = [...days.entries()].map(([day, usd]) => `(DATE '${day}', ${usd})`).join(", ");
  await connection.run(`INSERT INTO cost_per_day (day, cost_usd) VALUES ${values}`);
  // No export run: the last day stays incomplete, as in a warehouse before its next night's run.
  await connection.run("CREATE TABLE runs (started_at TIMESTAMPTZ, status VARCHAR)");
  await connection.run(schemaStatements("views/forecast.sql"));
  return {
    connection,
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
