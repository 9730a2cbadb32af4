import { mkdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { callsLabel } from "./callsLabel.mjs";
import { directoryBytes, fetchCeilingProcess, nightlyExpectation, runExport } from "./exporter.mjs";
import { ndjsonSize } from "./fetchAll.mjs";
import { historyDaysForSameRecentVolume } from "./historyDays.mjs";
import { newOperationCalls, operationFacts } from "./operationFacts.mjs";
import { operationsCeiling } from "./operationsCeiling.mjs";
import { startSim } from "./sim.mjs";
import { ratiosOf } from "./table.mjs";

export const DAY_MS = 86_400_000;
export const LOOKBACK_MS = 3 * DAY_MS; // the export's default --lookback

/** The figures of one export child, as the results file keeps them. */
function exportFigures(run, records, extra = {}) {
  const s = run.summary;
  return {
    seconds: run.wallSeconds,
    summarySeconds: s.seconds,
    phaseSeconds: s.phase_seconds,
    records: s.records_new,
    recordsPerSecond: records === null ? null : records / run.wallSeconds,
    peakRssMb: s.peak_rss_mb ?? run.maxRssMb,
    cpuSeconds: run.cpuSeconds,
    cpuMicrosPerRecord: records === null || run.cpuSeconds === null ? null : (run.cpuSeconds * 1e6) / records,
    requests: run.requests["/user/api-calls"] ?? 0,
    requestsByRoute: run.requests,
    summaryRequests: s.requests,
    operations: s.operations ?? null,
    pendingRereads: s.pending_rereads ?? null,
    partitionsWritten: s.partitions_written,
    ...extra,
  };
}

/**
 * One cell of the benchmark (a history size at a latency), in this order: the list fetch ceiling
 * as a process; a list-only cold export (--no-operations); a cold export with
 * default flags; the fetch ceiling again (the faster run counts); the operations ceilings; a
 * nightly export (clock +1 day) with the flags of the last cold export.
 */
export async function benchCell({ calls, latencyMs, simNow, options, work, datasets, log }) {
  const dir = path.join(work, `${calls}-${latencyMs}ms`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const tag = `${callsLabel(calls)} calls, ${latencyMs} ms`;
  // The export and the operations ceiling run at the same concurrency (the export's pace adapts
  // below it), so their ratio compares like with like.
  const limitArgs = [
    "--limit",
    String(options.limit),
    "--operations-concurrency",
    String(options.operationsConcurrency),
  ];
  log(`${tag}: starting the simulator`);
  const days = options.sameDailyVolume
    ? historyDaysForSameRecentVolume(calls, options.operationsWindowDays)
    : 90;
  const sim = await startSim({ calls, latencyMs, days, outputBytes: options.outputBytes, now: simNow });
  try {
    let dataset = datasets.get(calls);
    if (dataset === undefined) {
      log(`${tag}: the records' size as NDJSON (untimed)`);
      dataset = await ndjsonSize(sim, options.limit);
      datasets.set(calls, dataset);
    }
    const records = dataset.records;

    log(`${tag}: fetch ceiling (a process)`);
    const fetchLoad = os.loadavg()[0];
    const fetchedBefore = await fetchCeilingProcess(sim, options.limit);

    const profileDir = (kind) =>
      options.cpuProfDir ? path.resolve(options.cpuProfDir, `${calls}-${latencyMs}ms`, kind) : undefined;
    // One export as a user runs it, with the requests the simulator served for it, by route.
    const exportCounting = async (kind, db, out, extraArgs) => {
      const before = await sim.requestsByRoute();
      const result = await runExport({ sim, db, out, extraArgs, cpuProfDir: profileDir(kind) });
      const after = await sim.requestsByRoute();
      const requests = {};
      for (const [route, count] of Object.entries(after)) requests[route] = count - (before[route] ?? 0);
      return { ...result, requests };
    };

    log(`${tag}: zoo-usage export, cold, list only (--no-operations)`);
    const listDb = path.join(dir, "list.duckdb");
    const listOut = path.join(dir, "list-parquet");
    const listLoad = os.loadavg()[0];
    const listOnly = await exportCounting("cold-list-only", listDb, listOut, [
      "--no-operations",
      ...limitArgs,
    ]);
    const parquetBytes = await directoryBytes(listOut);

    let cold = null;
    let coldStartedAt = null;
    const db = path.join(dir, "zoo_usage.duckdb");
    const out = path.join(dir, "parquet");
    if (options.operations) {
      log(`${tag}: zoo-usage export, cold, default flags`);
      coldStartedAt = new Date();
      cold = { run: await exportCounting("cold", db, out, limitArgs), load: os.loadavg()[0] };
    }

    log(`${tag}: fetch ceiling again`);
    const fetchedAfter = await fetchCeilingProcess(sim, options.limit);
    const fetched = fetchedAfter.seconds < fetchedBefore.seconds ? fetchedAfter : fetchedBefore;

    let operations = null;
    if (cold !== null) {
      const since = new Date(coldStartedAt.getTime() - options.operationsWindowDays * DAY_MS).toISOString();
      const facts = await operationFacts(db, { since });
      // Twice, and the faster counts, as for the fetch ceiling: a run slowed by other work on the
      // machine would make the export look faster than its ceiling.
      const ceilingOf = async (ids) => {
        const once = () =>
          operationsCeiling({
            baseUrl: sim.url,
            token: sim.token,
            ids,
            concurrency: options.operationsConcurrency,
          });
        const first = await once();
        const second = await once();
        return {
          ...(second.seconds < first.seconds ? second : first),
          runsSeconds: [first.seconds, second.seconds],
        };
      };
      log(`${tag}: operations ceiling (twice), ${facts.fetched.length} operations the export fetched`);
      const fetchedCeiling = await ceilingOf(facts.fetched);
      // The default window's ids are those the export fetched when it fetches only the window.
      const sameIds = facts.inWindow.length === facts.fetched.length;
      if (!sameIds)
        log(`${tag}: operations ceiling (twice), ${facts.inWindow.length} operations of the default window`);
      const windowCeiling = sameIds ? fetchedCeiling : await ceilingOf(facts.inWindow);
      operations = {
        concurrency: options.operationsConcurrency,
        windowDays: options.operationsWindowDays,
        startedOperations: facts.started,
        fetchedIds: facts.fetched.length,
        windowIds: facts.inWindow.length,
        unfinishedAfterCold: facts.unfinished,
        ceiling: fetchedCeiling,
        windowCeiling,
      };
    }

    log(`${tag}: zoo-usage export, nightly (clock +1 day)`);
    await sim.advanceClock(DAY_MS);
    const nightlyDb = cold === null ? listDb : db;
    const nightlyArgs = cold === null ? ["--no-operations", ...limitArgs] : limitArgs;
    const coldRunId = (cold?.run ?? listOnly).summary.run_id;
    const nightly = await exportCounting("nightly", nightlyDb, cold === null ? listOut : out, nightlyArgs);
    const expected = await nightlyExpectation(nightlyDb, {
      coldRunId,
      nightlyRunId: nightly.summary.run_id,
      lookbackMs: LOOKBACK_MS,
      limit: options.limit,
    });
    const newOperations = cold === null ? 0 : await newOperationCalls(nightlyDb, nightly.summary.run_id);
    const rereads = nightly.summary.pending_rereads?.asked ?? 0;
    // Every request a nightly run may make: the list pages of the new calls and the lookback
    // window, the re-reads of calls pending billing, and the operations of the new calls that
    // started one plus the stored operations not yet final, and the account's own reads: one
    // credits balance, and the tokens and invoices listings (a page each, under 100 items, and the
    // empty page that ends a listing).
    const accountReads = 1 + 2 + 2;
    const requestBound =
      expected.bound + rereads + newOperations + (operations?.unfinishedAfterCold ?? 0) + accountReads;
    const nightlyRequests = Object.values(nightly.requests).reduce((a, b) => a + b, 0);

    const run = {
      calls,
      latencyMs,
      historyDays: days,
      records,
      ndjsonBytes: dataset.bytes,
      fetch: {
        ...fetched,
        runsSeconds: [fetchedBefore.seconds, fetchedAfter.seconds],
        recordsPerSecond: records / fetched.seconds,
        loadAverageBefore: fetchLoad,
      },
      listOnly: exportFigures(listOnly, records, { loadAverageBefore: listLoad, parquetBytes }),
      cold: cold === null ? null : exportFigures(cold.run, records, { loadAverageBefore: cold.load }),
      operations,
      nightly: {
        ...exportFigures(nightly, null),
        flags: nightlyArgs,
        ...expected,
        newOperationCalls: newOperations,
        allRequests: nightlyRequests,
        requestBound,
      },
    };
    run.ratios = ratiosOf(run);
    if (listOnly.summary.records_new !== records) {
      log(
        `${tag}: WARNING the export stored ${listOnly.summary.records_new} calls, the API listed ${records}`,
      );
    }
    log(
      `${tag}: fetch ${fetched.seconds.toFixed(1)} s, list-only export ${listOnly.wallSeconds.toFixed(1)} s` +
        (cold === null
          ? ""
          : `, default export ${cold.run.wallSeconds.toFixed(1)} s (operations ${cold.run.summary.phase_seconds.operations.toFixed(1)} s, ceiling ${operations.ceiling.seconds.toFixed(1)} s), ${cold.run.summary.peak_rss_mb} MB`) +
        `, nightly ${nightly.wallSeconds.toFixed(1)} s ${nightlyRequests} requests`,
    );
    return run;
  } finally {
    await sim.stop();
    if (!options.keep) await rm(dir, { recursive: true, force: true });
  }
}
