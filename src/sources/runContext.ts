import type { Checkpoint } from "../load/checkpoint.js";
import type { ScopeOwner } from "../load/warehouseScope.js";
import type { ScanContext } from "./calls/scanApiCalls.js";
import type { StartPoint } from "./calls/startPoint.js";
import type { ExportDeps, ExportOptions } from "./exportSettings.js";

/** What every source of one run is handed: the effects, the options, and what the run prepared. */
export interface RunContext {
  deps: ExportDeps;
  options: ExportOptions;
  /** `kind` groups repeats of one warning (RunWarnings). */
  warn: (message: string, kind?: string) => void;
  startedAt: Date;
  /** Whose data the warehouse holds (claimed before any source runs). */
  owner: ScopeOwner;
  /** The stored position when the run began, and where the calls' scan starts. */
  checkpoint: Checkpoint;
  start: StartPoint;
  /** The loader and transform the calls and their re-reads share. */
  calls: ScanContext;
}
