import type { ZooClient } from "../../api/client.js";
import {
  type ConcurrencyTrace,
  fetchOperationBodies,
  type OperationAnswer,
  type OperationBodies,
} from "../../extract/fetchOperationBodies.js";
import type { RejectRow } from "../../load/apiCallLoader.js";
import type { Warehouse } from "../../load/database.js";
import { OperationCandidates } from "../../load/operationCandidates.js";
import type { OperationLoader } from "../../load/operationLoader.js";
import { notFoundOperation, rejectedOperation } from "../../transform/emptyOperation.js";
import { rawOperationJson } from "../../transform/operationRawJson.js";
import { type OperationRow, transformOperation } from "../../transform/operationRow.js";
import type { CommitCounts, PageCounts, Source } from "../runSource.js";
import { CallTimeSpan } from "./callTimeSpan.js";
import { SerialQueue } from "./serialQueue.js";

export interface OperationsSourceContext {
  client: ZooClient;
  warehouse: Warehouse;
  loader: OperationLoader;
  signal: AbortSignal;
  now: () => Date;
  runId: string;
  /** The most requests in flight. */
  concurrency: number;
  /** Never stored operations are fetched for calls created from then on (ISO); null: all of them. */
  windowStart: string | null;
  /** Candidate ids read per query. */
  chunkSize: number;
}

/**
 * Fetched operations waiting for their commit: one row each, the rejects among them, and when
 * their calls were created.
 */
export interface OperationBatch {
  rows: OperationRow[];
  rejects: RejectRow[];
  calls: CallTimeSpan;
}

/**
 * The async operations, as a source: the candidates (OperationCandidates) fetched concurrently
 * (fetchOperationBodies), each group of answers turned into rows and rejects, committed by the
 * loader. The position is in the rows: a committed operation in a final state is no candidate any
 * more. Reading candidates and committing share the warehouse's connection, so they take turns
 * (one queue), while requests keep going out during both.
 */
export class OperationsSource implements Source<OperationAnswer[], OperationBatch> {
  readonly name = "async operations";
  /** The fetch keeps its requests in flight going after a stop: their answers are committed too. */
  readonly drainsOnStop = true;
  /** Answers that were 404: recorded as not found, never asked again. */
  notFound = 0;
  private readonly connection = new SerialQueue();
  private readonly bodies: OperationBodies;
  /** When the call of each candidate handed out and not yet taken was created. */
  private readonly callCreatedAt = new Map<string, string>();

  constructor(private readonly context: OperationsSourceContext) {
    const { client, warehouse, windowStart, chunkSize, concurrency, signal, now } = context;
    const candidates = new OperationCandidates(warehouse, { windowStart, chunkSize });
    this.bodies = fetchOperationBodies(client, {
      nextIds: () =>
        this.connection.run(async () => {
          const chunk = await candidates.next();
          for (const { id, callCreatedAt } of chunk) this.callCreatedAt.set(id, callCreatedAt);
          return chunk.map(({ id }) => id);
        }),
      concurrency,
      signal,
      now,
    });
  }

  /** The answers of one fetch: a source runs once. */
  pages(): AsyncIterable<OperationAnswer[]> {
    return this.bodies.answers;
  }

  /** The fetch's pace: where it started, its peak, where it is now. */
  concurrency(): ConcurrencyTrace {
    return this.bodies.concurrency();
  }

  newBatch(): OperationBatch {
    return { rows: [], rejects: [], calls: new CallTimeSpan() };
  }

  async take(batch: OperationBatch, answers: OperationAnswer[]): Promise<PageCounts> {
    let rejected = 0;
    for (const answer of answers) {
      batch.calls.add(this.callCreatedAt.get(answer.id));
      this.callCreatedAt.delete(answer.id);
      const { row, reject } = toStored(this.context.runId, answer);
      batch.rows.push(row);
      if (reject !== undefined) {
        batch.rejects.push(reject);
        rejected += 1;
      }
      if (answer.kind === "not_found") this.notFound += 1;
    }
    return { records: answers.length - rejected, rejected };
  }

  size(batch: OperationBatch): number {
    return batch.rows.length;
  }

  async commit(batch: OperationBatch): Promise<CommitCounts> {
    const { loader } = this.context;
    const committed = await this.connection.run(() =>
      loader.commit(batch.rows, batch.rejects, batch.calls.bounds()),
    );
    // The loader writes only the rows that changed, new or not, and counts them as one.
    return { inserted: committed.changed, updated: 0, refused: committed.refusedByDuckDb };
  }

  async complete(): Promise<void> {}
}

/** The row an answer is stored as, and its reject when the body cannot be. */
function toStored(runId: string, answer: OperationAnswer): { row: OperationRow; reject?: RejectRow } {
  switch (answer.kind) {
    case "found": {
      const { id, body, fetchedAt } = answer;
      const transformed = transformOperation(id, body, fetchedAt, answer.outputSizes);
      if (transformed.ok) return { row: transformed.row };
      return rejected(runId, id, fetchedAt, transformed.reason, rawOperationJson(body));
    }
    case "not_found":
      return { row: notFoundOperation(answer.id, answer.fetchedAt) };
    case "too_large":
      // The same body is as large next time: recorded as rejected, so later runs move on.
      return rejected(runId, answer.id, answer.fetchedAt, answer.reason, "null");
  }
}

/** An operation recorded as rejected (never asked again), and its reject with the reason. */
function rejected(runId: string, id: string, fetchedAt: string, reason: string, rawJson: string) {
  return {
    row: rejectedOperation(id, fetchedAt),
    reject: {
      run_id: runId,
      rejected_at: fetchedAt,
      record_id: id,
      reason: `async operation: ${reason}`,
      raw_json: rawJson,
    },
  };
}
