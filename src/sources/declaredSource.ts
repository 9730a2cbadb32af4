import { notVisibleStatus } from "../api/notVisible.js";
import { asStorageError } from "../load/storageError.js";
import { failureKind, type SourceOutcome } from "./outcome.js";
import type { RunContext } from "./runContext.js";
import type { SourceCounts, SourceRun } from "./runSource.js";
import type { RunSummary } from "./runSummary.js";

/** What a source's run returns to the runner: the engine's run, and what the source reports. */
export type SourceResult<Details> = SourceRun & { details: Details | undefined };

/**
 * One API resource brought into the warehouse, declared: what it reads, where it lands and how,
 * where its position lives, whether a token may lack it, the source that must have stored before it
 * runs, and its part of the run summary. `run` lists or fetches it (through runSource, with its
 * guards) and stores it. `Needed` is the details of the source it needs, handed to `run`.
 */
export interface DeclaredSource<Details = unknown, Needed = unknown> {
  /** As the run's output names it. */
  readonly name: string;
  /** The request(s) it makes, for messages and the docs. */
  readonly reads: string;
  /** The table(s) it writes. */
  readonly lands: string;
  /** How its rows land (dlt's write disposition), in words for the docs: its run's writer does it. */
  readonly disposition: string;
  /** Where its position is kept, if it resumes from one, for the docs. */
  readonly position?: string;
  /** A 403/404 skips it with a warning rather than failing the run. */
  readonly optional: boolean;
  /** The source whose outcome must be "stored" for this one to run. */
  readonly needs?: DeclaredSource<Needed>;
  /** The phase of the run summary its seconds count in. */
  readonly phase: "scan" | "account" | "operations";
  /** The progress line's phase while it runs. */
  readonly progress: string;
  run(context: RunContext, needed: Needed | undefined): Promise<SourceResult<Details>>;
  /** Fills the run summary's fields it owns from its outcome. */
  summarize(summary: RunSummary, outcome: SourceOutcome<Details>): void;
  /** Its lines of the printed summary, from the fields it owns (commands/export.ts orders them). */
  describe?(summary: RunSummary): string[];
}

const NO_COUNTS: SourceCounts = { pages: 0, seen: 0, inserted: 0, updated: 0, rejected: 0 };

/**
 * The one runner: runs a declared source and says what came of it in the one outcome shape. A
 * throw from the source is its failure like any other; a failure to write is told as the storage
 * error it is (what could not be written, and the disk hint).
 */
export async function runDeclared<Details, Needed>(
  source: DeclaredSource<Details, Needed>,
  context: RunContext,
  needed?: Needed,
): Promise<SourceOutcome<Details>> {
  const { deps, warn } = context;
  const startedAt = deps.now().getTime();
  deps.progress.update({ phase: source.progress });
  let result: SourceResult<Details>;
  try {
    result = await source.run(context, needed);
  } catch (error) {
    result = { counts: NO_COUNTS, ended: "failed", failure: error, details: undefined };
  }
  const seconds = (deps.now().getTime() - startedAt) / 1000;
  const outcome = { counts: result.counts, seconds, details: result.details };
  if (result.ended !== "failed") return { ...outcome, status: "stored" };
  const failure = asStorageError(result.failure, `the database ${deps.warehouse.path}`);
  const kind = failureKind(failure, source.optional);
  const reason = failure instanceof Error ? failure.message : String(failure);
  if (kind === "skipped") {
    const message = `${source.name} skipped: the API answered ${notVisibleStatus(failure)} (this token may not read it; the run goes on without it): ${reason}`;
    warn(message);
    return { ...outcome, status: "skipped", message };
  }
  return { ...outcome, status: "failed", message: `${source.name} not all stored: ${reason}`, failure, kind };
}
