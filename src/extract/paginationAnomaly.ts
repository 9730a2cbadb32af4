import { ZooUsageError } from "../errors.js";

/**
 * The API's cursor did not advance (a token handed out twice, empty pages that keep a token, a page
 * that goes back in created_at or brings only calls already read, more pages than a run allows).
 * Following it could loop forever or skip data, so the scan stops: what was read before it is
 * committed, the scan is not marked complete, and the run ends partial (exit 4).
 */
export class PaginationAnomaly extends ZooUsageError {
  /** The page token the next run starts from (plaintext; null: from the stored ladder). */
  readonly resumeFrom: string | null;

  /**
   * `listing` names what was listed, as the run's output says it ("GET /user/api-tokens"); without
   * one it is the calls' scan, which resumes from its last good page.
   */
  constructor(anomaly: string, resumeFrom: string | null, listing?: string) {
    super({
      code: "api.pagination_anomaly",
      message:
        listing === undefined
          ? `Pagination anomaly: ${anomaly}. The calls read before it are stored and the next run goes on from the last good page; this scan is not marked complete`
          : `Pagination anomaly in ${listing}: ${anomaly}. What it listed before is stored; the next run lists it again from the start`,
      hint: "Run the export again later. If the anomaly persists, report it to Zoo support with the run's output.",
    });
    this.name = "PaginationAnomaly";
    this.resumeFrom = resumeFrom;
  }
}
