import { ZooUsageError } from "../errors.js";
import { counted } from "../log/plural.js";
import { foreignText } from "../log/printable.js";
import { type DatasetClaim, OWNER_FILE, type OwnerMarker } from "./datasetOwner.js";

/** Every file or object under --out, by its name relative to it, and which of them are this program's own leftovers. */
export interface DatasetListing {
  /** What the names are, for messages: "file" or "object". */
  readonly noun: string;
  list(): Promise<string[]>;
  /** A name this program writes outside the datasets (a probe, a marker's temporary). */
  isOwn(name: string): boolean;
}

/** The names a refusal lists; the count says how many there are in all. */
const NAMES_SHOWN = 5;

/**
 * Refuses a new --out (one without an owner marker) that holds files or objects this program did
 * not write, unless told to adopt them: readers glob `api_calls/**\/*.parquet`, so a stray file
 * there, or a `data.parquet` that is not Parquet, breaks every one of them, and a dataset written
 * by something else would be mixed with this one. Everything counts but the marker and the
 * program's own leftovers (the write probe, a marker's temporary, a store's empty "folder"
 * objects). A dataset this warehouse wrote has a marker, so it is never refused here. Returns what
 * was there (undefined when the marker exists), for assertNoNewObjects.
 */
export async function assertNoForeignObjects(
  marker: OwnerMarker,
  listing: DatasetListing,
  options: { adopt: boolean },
): Promise<ReadonlySet<string> | undefined> {
  if ((await marker.read()) !== undefined) return undefined;
  const present = await listing.list();
  const foreign = present.filter((name) => !isOwn(listing, name)).sort();
  if (foreign.length > 0 && !options.adopt) {
    throw new ZooUsageError({
      code: "output.foreign_objects",
      message: `--out ${marker.dataset} has no owner marker and holds ${counted(foreign.length, listing.noun)} this export did not write: ${shownNames(foreign)}`,
      hint: `A dataset's readers glob api_calls/**/*.parquet, so a file there that is not this export's breaks every one of them. Choose an empty --out; or, to write there anyway (a dataset an older version of zoo-usage wrote before owner markers, or files you mean to keep beside it), run with --adopt-out (ZOO_USAGE_ADOPT_OUT=1) once: the run claims it and later runs need no flag.`,
    });
  }
  return new Set(present);
}

/**
 * Checked before the first write of a run that made the marker: nothing has appeared under --out
 * since it was opened. On a store that takes the marker's exclusive create as a plain write, two
 * new warehouses can both claim one prefix; the one that finds the other's objects here stops
 * before it uploads anything and removes its marker, so that neither goes on writing into a mixed
 * dataset unknowingly (the other adopts it on its next run, as the error says).
 */
export async function assertNoNewObjects(
  marker: OwnerMarker,
  listing: DatasetListing,
  before: ReadonlySet<string>,
  claim: DatasetClaim,
): Promise<void> {
  const appeared = (await listing.list()).filter((name) => !before.has(name) && !isOwn(listing, name)).sort();
  if (appeared.length === 0) return;
  if ((await marker.read())?.warehouse_id === claim.warehouseId) await marker.remove();
  throw new ZooUsageError({
    code: "output.other_warehouse",
    message: `Another writer is writing the new dataset ${marker.dataset} at the same time as this run: ${counted(appeared.length, listing.noun)} appeared after this run claimed it: ${shownNames(appeared)}`,
    hint: `This run wrote nothing there and removed its owner marker. Two databases writing one dataset overwrite each other's partitions (the store let both claim it: it ignores conditional writes). Choose another --out for this database; the database that wrote those files takes the dataset back with --adopt-out on its next run.`,
  });
}

function isOwn(listing: DatasetListing, name: string): boolean {
  return name === OWNER_FILE || listing.isOwn(name);
}

function shownNames(names: readonly string[]): string {
  const shown = names.slice(0, NAMES_SHOWN).map((name) => foreignText(name));
  return names.length > NAMES_SHOWN ? `${shown.join(", ")}, ... (${names.length} in all)` : shown.join(", ");
}
