import { ZooUsageError } from "../errors.js";

/**
 * Pages in a row that bring no new key while the store says there are more. AWS documents that a
 * listing may return an empty page with a continuation token (directory buckets do), so one such
 * page is followed; the API's listings allow the same 3 (extract/paginate.ts).
 */
const FRUITLESS_PAGES = 3;

/**
 * Pages one listing may take: 10 million keys at S3's 1,000 a page, far more than the partitions
 * of a dataset (a day's partitions over 27 years are 10,000). A store that hands out new tokens and
 * new keys forever is stopped here rather than followed.
 */
const MAX_PAGES = 10_000;

/**
 * A store's listing that does not advance: following it could loop forever (a continuation token
 * handed out twice was followed 33,000 times in two minutes) or read keys that are not there.
 * The listing stops; the run keeps what it committed, leaves the Parquet datasets dirty for the
 * next run, and ends partial (exit 4).
 */
export class S3ListingAnomaly extends ZooUsageError {
  constructor(anomaly: string, listing: string) {
    super({
      code: "output.s3_listing_anomaly",
      message: `Listing anomaly in ${listing}: ${anomaly}. The listing was stopped; the partitions not yet uploaded stay marked for the next run`,
      hint: "Run the export again later. If the anomaly persists, the store's ListObjectsV2 is at fault: report it to its operator with the run's output.",
    });
    this.name = "S3ListingAnomaly";
  }
}

/**
 * Checks each page of one paged listing (ListObjectsV2) before its token is followed: a token handed
 * out twice, a page that claims more without a token, FRUITLESS_PAGES pages in a row with no new key while more are claimed, or MAX_PAGES
 * pages stop it as an S3ListingAnomaly naming `listing` (the prefix as an s3:// URL).
 */
export class ListingGuard {
  private readonly tokens = new Set<string>();
  private readonly keys = new Set<string>();
  private pages = 0;
  private fruitless = 0;

  constructor(private readonly listing: string) {}

  /** The keys seen so far, each once. */
  get seen(): string[] {
    return [...this.keys];
  }

  /**
   * Takes one page (its keys, whether it claims more, its continuation token); returns the token
   * to follow, or undefined when the listing is complete.
   */
  page(keys: readonly string[], truncated: boolean, next: string | undefined): string | undefined {
    this.pages += 1;
    const before = this.keys.size;
    for (const key of keys) this.keys.add(key);
    if (!truncated) return undefined;
    // Ending here would take a part of the listing for the whole.
    if (next === undefined || next === "")
      throw new S3ListingAnomaly(
        `page ${this.pages} claims more keys but has no continuation token`,
        this.listing,
      );
    if (this.tokens.has(next))
      throw new S3ListingAnomaly(
        `the continuation token of page ${this.pages} was handed out before`,
        this.listing,
      );
    this.tokens.add(next);
    this.fruitless = this.keys.size === before ? this.fruitless + 1 : 0;
    if (this.fruitless >= FRUITLESS_PAGES)
      throw new S3ListingAnomaly(
        `${FRUITLESS_PAGES} pages in a row brought no new key while claiming more`,
        this.listing,
      );
    if (this.pages >= MAX_PAGES)
      throw new S3ListingAnomaly(
        `more than ${MAX_PAGES} pages, and the store still claims more`,
        this.listing,
      );
    return next;
  }
}
