import { setImmediate } from "node:timers/promises";
import type { PageItems } from "../../api/pageItems.js";
import { ZooUsageError } from "../../errors.js";
import { serializeRow } from "../../load/apiCallBatch.js";
import { serializeReject } from "../../load/apiCallLoader.js";
import {
  checkApiCall,
  rawForRejects,
  type TransformContext,
  toMicros,
  toRow,
} from "../../transform/apiCallRow.js";
import { isBulkLoadable } from "../../transform/bulkLoadable.js";
import type { DerivedValues } from "../../transform/derivedValues.js";

/**
 * Records read between two turns of the event loop. A commit runs as a series of DuckDB
 * statements, and each one starts only when this thread is free to issue it: reading a whole
 * page in one go would hold each statement back until the page is done.
 */
const RECORDS_PER_TURN = 200;

/** What a valid call of a page leaves once read: what the scan's checks and the checkpoint need. */
export interface CallFacts {
  id: string;
  created_at: string;
  /** created_at as the checkpoint compares it (toMicros). */
  createdMicros: string;
  userId: string;
  orgId: string | null;
}

/** A page's records, each read, validated and turned into what its batch stores, in order. */
export interface PageRecords {
  calls: CallFacts[];
  /** Items DuckDB reads as the server sent them (isBulkLoadable), as their bytes. */
  rawItems: Buffer[];
  /** The other valid records, transformed and serialised (NDJSON lines). */
  rows: string[];
  /** Serialised rejects (serializeReject). */
  rejects: string[];
}

/**
 * Reads a page's records one at a time: each item is parsed (a raw item from its bytes), validated,
 * and kept only as what the batch stores and the few facts the checks need, so that a page's
 * parsed records never all exist at once. A record DuckDB reads raw to the same row keeps its bytes
 * and notes the values DuckDB joins in (`derived`: per distinct value, so noting those of a page
 * that is then refused stores nothing); any other valid record becomes a row here.
 */
export async function readPageRecords(
  items: PageItems,
  context: {
    transform: TransformContext;
    derived: DerivedValues;
    runId: string;
    now: () => Date;
    where: string;
  },
): Promise<PageRecords> {
  const { transform, derived } = context;
  const records: PageRecords = { calls: [], rawItems: [], rows: [], rejects: [] };
  for (let index = 0; index < items.length; index++) {
    if (index > 0 && index % RECORDS_PER_TURN === 0) await setImmediate();
    const raw = parseItem(items, index, context.where);
    const result = checkApiCall(raw, transform);
    if (!result.ok) {
      records.rejects.push(
        serializeReject({
          run_id: context.runId,
          rejected_at: context.now().toISOString(),
          record_id: result.recordId,
          reason: result.reason,
          raw_json: rawForRejects(raw, transform),
        }),
      );
      continue;
    }
    const { call, source } = result;
    records.calls.push({
      id: call.id,
      created_at: call.created_at,
      createdMicros: toMicros(call.created_at),
      userId: call.user_id,
      orgId: call.org_id ?? null,
    });
    const bytes = items.bytesOf(index);
    if (bytes !== undefined && isBulkLoadable(call, source)) {
      derived.add(call);
      records.rawItems.push(bytes);
    } else {
      records.rows.push(serializeRow(toRow(call, source, transform)));
    }
  }
  return records;
}

/**
 * Item `index` of the page. The page's frame and nesting were checked as it arrived; an item that
 * is still not JSON makes the body invalid, as JSON.parse would have found it whole.
 */
function parseItem(items: PageItems, index: number, where: string): unknown {
  try {
    return items.at(index);
  } catch (cause) {
    if (!(cause instanceof SyntaxError)) throw cause;
    throw new ZooUsageError({
      code: "api.invalid_response",
      message: `${where} returned a body that is not valid JSON (item ${index + 1} of the page)`,
      hint: "This is usually a connection problem; the next run reads the page again. If it persists, report it to Zoo support.",
      cause,
    });
  }
}
