import type { RawApiCallsPage, ZooClient } from "../../api/client.js";
import { ZooUsageError } from "../../errors.js";
import { type PageEvent, paginate } from "../../extract/paginate.js";
import { PaginationAnomaly } from "../../extract/paginationAnomaly.js";
import { type Batch, noteRecord } from "../../load/apiCallBatch.js";
import type { ApiCallLoader } from "../../load/apiCallLoader.js";
import { finishScan } from "../../load/checkpoint.js";
import type { Warehouse } from "../../load/database.js";
import type { ScopeOwner } from "../../load/warehouseScope.js";
import type { SecretBox } from "../../secrets/secretBox.js";
import { isEarlier, type TransformContext } from "../../transform/apiCallRow.js";
import type { CommitCounts, PageCounts, Source } from "../runSource.js";
import { CursorGuard } from "./cursorGuard.js";
import type { FutureCalls } from "./futureCalls.js";
import { type PageRecords, readPageRecords } from "./pageRecords.js";
import type { StartPoint } from "./startPoint.js";

/**
 * The spooled JSON of one batch at most, about one full page of 10,000 ordinary records: the insert
 * reads a batch's files in one statement and its memory grows with their bytes, so a batch is one or
 * two pages whatever the page size, and long records commit sooner.
 */
const BATCH_BYTES = 8 * 1024 * 1024;

/** The list request of a scan: GET /user/api-calls (an org's calls have the same schema and paging). */
export type ListCalls = ZooClient["listApiCalls"];

export interface ApiCallsSourceContext {
  list: ListCalls;
  warehouse: Warehouse;
  secrets: SecretBox;
  loader: ApiCallLoader;
  transform: TransformContext;
  /** Calls dated after the run's clock: the checkpoint notes them as created now. */
  future: FutureCalls;
  now: () => Date;
  /** `kind` groups repeats of one warning (RunWarnings). */
  warn: (message: string, kind?: string) => void;
  runId: string;
  limit: number;
  maxPages: number;
  lookbackMs: number;
  /** In org scope every member's calls are listed: a call of another org is stored and counted. */
  owner: ScopeOwner;
}

/**
 * The api calls, as a source: pages of the list in ascending created_at from a start point, each
 * checked against the pages before it (CursorGuard), its records validated into rows and rejects,
 * and committed by the loader with the page tokens they reach (the checkpoint).
 */
export class ApiCallsSource implements Source<PageEvent, Batch> {
  readonly name = "api calls";
  /**
   * created_at of the first call the scan read. A keyset scan lists every call after its start, so
   * the calls from this one on were read; only those before it (or tied with it) were not.
   */
  firstCreatedAt: string | undefined;
  private readonly cursor = new CursorGuard();
  /** The newest created_at read so far, for the warning about a call listed after a newer one. */
  private lastCreatedAt = "";
  /** Calls the org's listing returned with another org's org_id: stored, and counted here. */
  foreignOrgCalls = 0;
  /** Whether knownUser's calls were in the database before this run (else this run met them first). */
  private knownUserStored: boolean;

  constructor(
    private readonly context: ApiCallsSourceContext,
    private readonly start: StartPoint,
    /** The user whose history the database holds (null before the first record ever). */
    private knownUser: string | null,
  ) {
    this.knownUserStored = knownUser !== null;
  }

  pages(): AsyncIterable<PageEvent> {
    const { list, limit, maxPages } = this.context;
    return paginate(
      (token, onNextPageSeen, signal) =>
        list({ limit, pageToken: token, sortBy: "created_at_ascending", onNextPageSeen, signal }),
      this.start.token,
      { maxPages },
    );
  }

  newBatch(previous: Batch | undefined): Batch {
    return this.context.loader.newBatch(previous?.resumeToken ?? null);
  }

  discard(batch: Batch): Promise<void> {
    return this.context.loader.discard(batch);
  }

  async take(batch: Batch, { page, requestToken }: PageEvent): Promise<PageCounts> {
    const { transform, runId, now } = this.context;
    const records = await readPageRecords(page.items, {
      transform,
      derived: batch.derived,
      runId,
      now,
      where: `GET ${this.context.owner.scope === "org" ? "/org" : "/user"}/api-calls`,
    });
    const cursorProblem = this.cursor.check(records.calls);
    // The page is not taken: the next run reads it again from the token that fetched it.
    if (cursorProblem !== undefined) throw new PaginationAnomaly(cursorProblem, requestToken);
    this.cursor.accept(records.calls);
    const counts = this.addRecords(batch, records);
    this.notePosition(batch, page);
    return counts;
  }

  size(batch: Batch): number {
    return batch.rows.count + batch.items.count + batch.rejects.length;
  }

  /** A batch of long records commits before its record count is reached: DuckDB reads it whole. */
  full(batch: Batch): boolean {
    return batch.rows.bytes + batch.items.bytes >= BATCH_BYTES;
  }

  async commit(batch: Batch): Promise<CommitCounts> {
    const result = await this.context.loader.commit(batch);
    return { inserted: result.inserted, updated: result.updated, refused: result.refusedByDuckDb };
  }

  /** After an anomaly the checkpoint is where the good pages end, even in an otherwise empty batch. */
  stopAt(batch: Batch, error: unknown): boolean {
    if (!(error instanceof PaginationAnomaly)) return false;
    batch.resumeToken = error.resumeFrom === null ? null : this.context.secrets.seal(error.resumeFrom);
    return true;
  }

  async complete(): Promise<void> {
    const { warehouse, now, lookbackMs } = this.context;
    await finishScan(warehouse, now(), lookbackMs);
  }

  /** A page's records into the batch: rejects, rows, and the items DuckDB reads as sent. */
  private addRecords(batch: Batch, records: PageRecords): PageCounts {
    for (const call of records.calls) {
      this.checkOwner(batch, call.id, call.userId, call.orgId);
      noteRecord(batch, this.checkpointTime(call.id, call.createdMicros));
    }
    batch.rejects.push(...records.rejects);
    batch.rows.append(records.rows);
    batch.items.append(records.rawItems);
    return { records: records.calls.length, rejected: records.rejects.length };
  }

  /**
   * User scope: the first user ever is the database's; a call of another user stops the run. Org
   * scope: the calls are many users', and every call the org's own listing returns is the org's to
   * export, whatever its org_id says: one that names another org is stored, with a warning and a
   * count (foreign_org_calls), rather than stopping every night. A call without org_id is a
   * member's call made before it joined, as the org listing shows it.
   */
  private checkOwner(batch: Batch, callId: string, userId: string, orgId: string | null): void {
    const { owner } = this.context;
    if (owner.scope === "org") {
      if (orgId !== null && owner.ownerId !== null && orgId.toLowerCase() !== owner.ownerId) {
        this.foreignOrgCalls += 1;
        this.context.warn(
          `call ${callId} listed by GET /org/api-calls names org ${orgId}, not this org ${owner.ownerId}; stored all the same, as the org's listing returned it (counted in foreign_org_calls)`,
          "call of another org_id",
        );
      }
      return;
    }
    if (this.knownUser === null) {
      this.knownUser = userId;
      this.knownUserStored = false;
      batch.userId = userId;
    } else if (userId !== this.knownUser) {
      throw otherUserError(this.context.warehouse.path, this.knownUser, this.knownUserStored, callId, userId);
    }
  }

  /** The created_at a call moves the checkpoint to; warns about a call listed after a newer one. */
  private checkpointTime(id: string, createdAt: string): string {
    this.firstCreatedAt ??= createdAt;
    if (this.lastCreatedAt !== "" && isEarlier(createdAt, this.lastCreatedAt)) {
      this.context.warn(
        `call ${id} is listed after a newer call (${createdAt} < ${this.lastCreatedAt}); loaded anyway`,
        "listed after a newer call",
      );
    } else {
      this.lastCreatedAt = createdAt;
    }
    return this.context.future.checkpointTime(id, createdAt);
  }

  /** Where the batch has reached after a page: its next token, sealed, and a rung of the ladder. */
  private notePosition(batch: Batch, page: RawApiCallsPage): void {
    const sealedNext = page.nextPage === null ? null : this.context.secrets.seal(page.nextPage);
    if (sealedNext !== null && this.lastCreatedAt !== "" && page.items.length > 0) {
      batch.rungs.push({ lastCreatedAt: this.lastCreatedAt, sealedToken: sealedNext });
    }
    batch.resumeToken = sealedNext;
  }
}

/**
 * The refusal of another user's call. It says the database holds the first user's calls only when
 * they were stored before this run; a run that lists two users' calls on a new database says that.
 */
function otherUserError(
  dbPath: string,
  first: string,
  firstStored: boolean,
  callId: string,
  seen: string,
): ZooUsageError {
  return new ZooUsageError({
    code: "warehouse.other_user",
    message: firstStored
      ? `The database ${dbPath} holds the calls of user ${first}, but this token lists calls of user ${seen} (call ${callId})`
      : `This token lists calls of user ${first} and of user ${seen} (call ${callId}), but the database ${dbPath} holds one user's calls`,
    hint: "Use one database per user: pass another --db for this token.",
  });
}
