import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { callsLabel } from "./callsLabel.mjs";
import { runExport } from "./exporter.mjs";
import { CLI } from "./paths.mjs";
import { startSim } from "./sim.mjs";

/** Bumped when the 10M generator below changes what it writes, so cached warehouses are rebuilt. */
const GENERATOR_VERSION = 3;
/** Months each generated copy of the base history is moved back, per copy: the base spans ~91 days. */
const MONTHS_PER_COPY = 3;

/** The folder of a build (the parent of its dist/) from the path of its dist/bin/zoo-usage.js. */
export function buildRoot(cli) {
  return path.resolve(path.dirname(cli), "..", "..");
}

/** A short digest of a build's dist/ and sql/ (what decides the warehouse it writes and reads). */
export async function buildDigest(cli) {
  const root = buildRoot(cli);
  const hash = createHash("sha256");
  for (const folder of ["dist", "sql"]) {
    const dir = path.join(root, folder);
    if (!existsSync(dir)) continue;
    const entries = (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name))
      .sort();
    for (const file of entries) {
      hash.update(path.relative(root, file));
      hash.update(await readFile(file));
    }
  }
  return hash.digest("hex").slice(0, 12);
}

/** Reads a file to its end and drops it: the OS cache then holds it (a "warm OS cache"). */
export function readThrough(file) {
  return new Promise((resolve, reject) => {
    const stream = createReadStream(file, { highWaterMark: 1 << 22 });
    stream.on("data", () => {});
    stream.once("end", resolve);
    stream.once("error", reject);
  });
}

async function withDb(db, work, { readOnly = true } = {}) {
  const instance = await DuckDBInstance.create(db, readOnly ? { access_mode: "READ_ONLY" } : {});
  const connection = await instance.connect();
  try {
    await connection.run("SET TimeZone = 'UTC'");
    return await work(async (sql) => (await connection.runAndReadAll(sql)).getRowObjectsJson());
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** What the benchmark prints about a warehouse: its calls, days, first and last call. */
export function warehouseFacts(db) {
  return withDb(db, async (query) => {
    const [row] = await query(
      `SELECT count(*)::BIGINT AS calls, min(created_at)::VARCHAR AS first_call,
              max(created_at)::VARCHAR AS last_call,
              (date_diff('day', min(created_at), max(created_at)) + 1)::INTEGER AS days,
              strftime(max(created_at) + INTERVAL 1 DAY, '%Y-%m-%d') AS day_after_last,
              (SELECT count(*) FROM invoices)::INTEGER AS invoices
       FROM api_calls`,
    );
    return { ...row, calls: Number(row.calls) };
  });
}

/**
 * One real warehouse: the simulator (this checkout's build) in its own process, one user, `days`
 * of history ending at `simNow`, at 0 ms latency, and `zoo-usage export --no-operations` of the
 * given build into `dir/zoo.duckdb`. The Parquet dataset is removed (report and check read only
 * the database).
 */
async function exportWarehouse({ cli, dir, calls, days, seed, simNow, log }) {
  const sim = await startSim({ calls, latencyMs: 0, days, seed, now: simNow });
  try {
    const started = performance.now();
    const run = await runExport({
      sim,
      db: path.join(dir, "zoo.duckdb"),
      out: path.join(dir, "parquet"),
      extraArgs: ["--no-operations"],
      cli,
    });
    log(
      `  exported ${run.summary.records_new} calls in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    return { how: "export", exportSeconds: run.wallSeconds, exportPeakRssMb: run.maxRssMb };
  } finally {
    await sim.stop();
    await rm(path.join(dir, "parquet"), { recursive: true, force: true });
  }
}

/**
 * The generator of the big warehouse (docs: bench/README.md, "The analyst's side"). It copies the
 * base warehouse and adds `factor - 1` copies of its calls, copy k moved back k * 3 calendar months
 * (created_at, started_at, completed_at, updated_at alike; 3 months per copy, the base's ~91 days,
 * so the copies tile the time before it), each with new ids (uuid()) and its own invoice items
 * (`<item>_g<k>`). Every invoice and line of the base is copied for each copy in the same way
 * (created_at moved back, ids, items, numbers and descriptions renamed), and the base's newest
 * billing month, which has no invoice yet, gets one in every copy (its month has ended there), so
 * that each generated month reconciles like an exported one. The other tables (tokens, balance,
 * runs, own calls, bookkeeping) are the base's.
 */
export async function generateWarehouse({ baseDir, dir, factor, log, sqlDir }) {
  await cp(baseDir, dir, { recursive: true });
  const started = performance.now();
  await withDb(
    path.join(dir, "zoo.duckdb"),
    async (query) => {
      // The base's rows, by rowid (a cold export deletes and re-inserts invoices: rowids have gaps).
      const [last] = await query(
        `SELECT (SELECT max(rowid) FROM api_calls) AS calls, (SELECT max(rowid) FROM invoices) AS invoices,
                (SELECT max(rowid) FROM invoice_lines) AS lines`,
      );
      const columns = (
        await query(
          `SELECT column_name FROM duckdb_columns()
           WHERE schema_name = 'main' AND table_name = 'api_calls' ORDER BY column_index`,
        )
      ).map((row) => row.column_name);
      const invoiceColumns = (
        await query(
          `SELECT column_name FROM duckdb_columns()
           WHERE schema_name = 'main' AND table_name = 'invoices' ORDER BY column_index`,
        )
      ).map((row) => row.column_name);
      const lineColumns = (
        await query(
          `SELECT column_name FROM duckdb_columns()
           WHERE schema_name = 'main' AND table_name = 'invoice_lines' ORDER BY column_index`,
        )
      ).map((row) => row.column_name);
      const back = (k, column) => `${column} - to_months(${MONTHS_PER_COPY * k})`;
      const renamed = (k, column) =>
        `CASE WHEN ${column} IS NULL OR ${column} = '' THEN ${column} ELSE ${column} || '_g${k}' END`;
      // The base's newest billing month without an invoice: the items of calls billed on no line.
      await query(
        `CREATE TEMP TABLE open_items AS
         SELECT stripe_invoice_item_id AS item, sum(price_usd) AS amount,
                date_trunc('month', max(created_at)) AS month
         FROM api_calls
         WHERE stripe_invoice_item_id <> ''
           AND stripe_invoice_item_id NOT IN (SELECT invoice_item FROM invoice_lines WHERE invoice_item IS NOT NULL)
         GROUP BY 1`,
      );
      const [template] = await query("SELECT id FROM invoices ORDER BY created_at DESC LIMIT 1");
      for (let k = 1; k < factor; k++) {
        const callValues = columns.map((column) => {
          if (column === "id") return "uuid()";
          if (["created_at", "started_at", "completed_at", "updated_at"].includes(column))
            return back(k, column);
          // The stored UTC day and month move with created_at, as the loader cuts them.
          if (column === "created_day") return `utc_day(${back(k, "created_at")})`;
          if (column === "created_month") return `utc_month(${back(k, "created_at")})`;
          if (column === "stripe_invoice_item_id") return renamed(k, column);
          return column;
        });
        await query(
          `INSERT INTO api_calls (${columns.join(", ")})
           SELECT ${callValues.join(", ")} FROM api_calls WHERE rowid <= ${last.calls}`,
        );
        const invoiceValues = invoiceColumns.map((column) => {
          if (column === "id") return `id || '_g${k}'`;
          if (column === "created_at") return back(k, column);
          if (column === "number")
            return `regexp_replace(number, '\\d{6}$', strftime(${back(k, "created_at")} - INTERVAL 1 MONTH, '%Y%m'))`;
          if (column === "description")
            return `regexp_replace(description, '\\d{4}-\\d{2}$', strftime(${back(k, "created_at")} - INTERVAL 1 MONTH, '%Y-%m'))`;
          return column;
        });
        await query(
          `INSERT INTO invoices (${invoiceColumns.join(", ")})
           SELECT ${invoiceValues.join(", ")} FROM invoices WHERE rowid <= ${last.invoices ?? -1}`,
        );
        const lineValues = lineColumns.map((column) => {
          if (column === "invoice_id") return `invoice_id || '_g${k}'`;
          if (column === "id" || column === "invoice_item") return renamed(k, column);
          if (column === "description")
            return `regexp_replace(description, '\\d{4}-\\d{2}$', strftime((SELECT ${back(k, "created_at")} - INTERVAL 1 MONTH FROM invoices i WHERE i.id = invoice_id), '%Y-%m'))`;
          return column;
        });
        await query(
          `INSERT INTO invoice_lines (${lineColumns.join(", ")})
           SELECT ${lineValues.join(", ")} FROM invoice_lines WHERE rowid <= ${last.lines ?? -1}`,
        );
        if (template !== undefined) {
          // The open month's invoice in copy k: the newest invoice's shape, made on the 1st of the
          // month after the month (moved back), one line per open item, paid in full.
          const openValues = invoiceColumns.map((column) => {
            const when = `(o.month - to_months(${MONTHS_PER_COPY * k}))`;
            if (column === "id") return `'in_open_g${k}'`;
            if (column === "created_at") return `${when} + INTERVAL 1 MONTH + INTERVAL 2 HOUR`;
            if (column === "number") return `regexp_replace(number, '\\d{6}$', strftime(${when}, '%Y%m'))`;
            if (column === "description")
              return `regexp_replace(description, '\\d{4}-\\d{2}$', strftime(${when}, '%Y-%m'))`;
            if (["amount_due", "amount_paid", "subtotal", "total"].includes(column)) return "o.amount";
            if (["amount_refunded", "amount_remaining", "tax"].includes(column)) return "0";
            return `i.${column}`;
          });
          await query(
            `INSERT INTO invoices (${invoiceColumns.join(", ")})
             SELECT ${openValues.join(", ")}
             FROM invoices i, (SELECT sum(amount) AS amount, max(month) AS month FROM open_items) o
             WHERE i.id = '${template.id}' AND o.amount IS NOT NULL`,
          );
          const openLine = lineColumns.map((column) => {
            if (column === "invoice_id") return `'in_open_g${k}'`;
            if (column === "line_number") return "row_number() OVER (ORDER BY o.item)";
            if (column === "id") return `'il_open_g${k}_' || o.item`;
            if (column === "amount") return "o.amount";
            if (column === "invoice_item") return `o.item || '_g${k}'`;
            if (column === "description")
              return `regexp_replace(l.description, '\\d{4}-\\d{2}$', strftime(o.month - to_months(${MONTHS_PER_COPY * k}), '%Y-%m'))`;
            if (["money_raw", "money_flags", "extra"].includes(column)) return "NULL";
            return `l.${column}`;
          });
          await query(
            `INSERT INTO invoice_lines (${lineColumns.join(", ")})
             SELECT ${openLine.join(", ")}
             FROM open_items o,
                  (SELECT * FROM invoice_lines WHERE invoice_id = '${template.id}' ORDER BY line_number LIMIT 1) l`,
          );
        }
        log(
          `  generated copy ${k} of ${factor - 1} (${((performance.now() - started) / 1000).toFixed(0)} s)`,
        );
      }
      await refreshDerived(query, sqlDir, log);
      await query("CHECKPOINT");
    },
    { readOnly: false },
  );
  return { how: "generated", factor, generateSeconds: (performance.now() - started) / 1000 };
}

/**
 * What a build derives from the calls, made again over the copies with the build's own statements
 * (its sql/ folder), as its loader would after reading them: the copies' classes differ from the
 * base's where the open month got an invoice, and its grains hold the base's days alone. A build
 * without a statement has nothing of that kind to make.
 */
async function refreshDerived(query, sqlDir, log) {
  const statement = async (name) => {
    const file = path.join(sqlDir, "statements", name);
    return existsSync(file) ? await readFile(file, "utf8") : undefined;
  };
  const classify = await statement("classify_calls.sql");
  if (classify === undefined) return;
  const started = performance.now();
  await query("CREATE OR REPLACE TEMP TABLE class_days AS SELECT DISTINCT created_day AS day FROM api_calls");
  // The classes read which items the calls carry (invoice_item_calls, from call_grains where the
  // build has it): that rollup first, then the classes, then every grain with them.
  const callGrains = await statement("call_grains.sql");
  if (callGrains !== undefined) {
    await query("DELETE FROM call_grains");
    await query(`INSERT INTO call_grains BY NAME SELECT * FROM (${callGrains})`);
  }
  await query(`CREATE OR REPLACE TEMP TABLE classified AS ${classify}`);
  await query(
    `UPDATE api_calls SET billing_class = c.billing_class, billing_reason = c.reason, billing_invoice_id = c.invoice_id
     FROM classified AS c WHERE api_calls.id = c.id`,
  );
  for (const table of ["usage_grains", "call_grains"]) {
    const grains = await statement(`${table}.sql`);
    if (grains === undefined) continue;
    await query(`DELETE FROM ${table}`);
    await query(`INSERT INTO ${table} BY NAME SELECT * FROM (${grains})`);
  }
  await query("DELETE FROM internal.stale_class_days");
  // Recorded as the loader records a completed classification, where the build has the digest:
  // otherwise its report and check would say the classes lag the invoices the copies added.
  const classes = path.join(path.dirname(sqlDir), "dist", "load", "callClasses.js");
  const { INVOICES_DIGEST } = existsSync(classes) ? await import(classes) : {};
  if (INVOICES_DIGEST !== undefined)
    await query(`UPDATE internal.export_state SET classified_invoices = (${INVOICES_DIGEST})`);
  log(`  classes and grains made again (${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

/**
 * The warehouse of `size` calls written by `cli`, from the cache when it is there: an export for
 * sizes up to `generateAbove`, else the generator over the warehouse of the largest exported size.
 * Cached under `cacheDir/<digest of the build, the simulator's build and the shape>/<size>/`.
 */
export async function warehouseFor({ cli, size, sizes, generateAbove, shape, cacheDir, log }) {
  const key = createHash("sha256")
    .update(
      JSON.stringify({
        build: await buildDigest(cli),
        sim: cli === CLI ? "same" : await buildDigest(CLI),
        ...shape,
        generator: GENERATOR_VERSION,
      }),
    )
    .digest("hex")
    .slice(0, 16);
  const bases = sizes.filter((s) => s <= generateAbove);
  const base = bases.length > 0 ? Math.max(...bases) : generateAbove;
  const exported = size <= generateAbove;
  const name = exported ? callsLabel(size) : `${callsLabel(size)}-from-${callsLabel(base)}`;
  const dir = path.join(cacheDir, key, name);
  const meta = path.join(dir, "warehouse.json");
  if (existsSync(meta)) {
    log(`${callsLabel(size)}: cached warehouse ${path.relative(process.cwd(), dir)}`);
    return {
      dir,
      db: path.join(dir, "zoo.duckdb"),
      ...JSON.parse(await readFile(meta, "utf8")),
      cached: true,
    };
  }
  const building = `${dir}.building`;
  await rm(building, { recursive: true, force: true });
  let made;
  if (exported) {
    log(`${callsLabel(size)}: exporting a warehouse (${path.relative(process.cwd(), dir)})`);
    await mkdir(building, { recursive: true });
    made = await exportWarehouse({ cli, dir: building, calls: size, ...shape, log });
  } else {
    const factor = Math.round(size / base);
    if (factor < 2 || factor * base !== size) {
      throw new Error(`${callsLabel(size)}: a generated size must be a multiple of ${callsLabel(base)}`);
    }
    const baseWarehouse = await warehouseFor({ cli, size: base, sizes, generateAbove, shape, cacheDir, log });
    log(`${callsLabel(size)}: generating ${factor} x the ${callsLabel(base)} warehouse`);
    await mkdir(path.dirname(building), { recursive: true });
    made = await generateWarehouse({
      baseDir: baseWarehouse.dir,
      dir: building,
      factor,
      log,
      sqlDir: path.join(buildRoot(cli), "sql"),
    });
    made.base = callsLabel(base);
  }
  made.builtAt = new Date().toISOString();
  await writeFile(path.join(building, "warehouse.json"), `${JSON.stringify(made, null, 2)}\n`);
  await rename(building, dir);
  return { dir, db: path.join(dir, "zoo.duckdb"), ...made, cached: false };
}
