import { assertStillOwned, type DatasetClaim, type OwnerMarker } from "./datasetOwner.js";
import type { DatasetTarget } from "./datasetTarget.js";

/**
 * A target whose every write (a publish, a removal) is preceded by a look at the owner marker: a
 * run whose claim no longer stands (another claim overwrote the marker on a store that ignores
 * conditional writes, or the marker was deleted and taken) stops before that write.
 * `beforeFirstWrite` adds a check made once, before the run's first write. The claim is set by
 * `claimed` once claimDataset returned; a write before it is a programming error.
 */
export function guardedByOwner(
  target: DatasetTarget,
  marker: OwnerMarker,
  beforeFirstWrite: (claim: DatasetClaim) => Promise<void> = async () => {},
): { target: DatasetTarget; claimed: (claim: DatasetClaim) => void } {
  let claim: DatasetClaim | undefined;
  let written = false;
  const check = async () => {
    if (claim === undefined) throw new Error(`${target.location} was written before it was claimed`);
    await assertStillOwned(marker, claim);
    if (!written) await beforeFirstWrite(claim);
    written = true;
  };
  return {
    target: {
      ...target,
      async publish(staged, dataset, partition) {
        await check();
        await target.publish(staged, dataset, partition);
      },
      async remove(dataset, partition) {
        await check();
        await target.remove(dataset, partition);
      },
    },
    claimed: (value) => {
      claim = value;
    },
  };
}
