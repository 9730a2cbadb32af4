import { operationFails } from "./callFacts.js";
import { FILE_ERRORS, TEXT_TO_CAD_ERRORS } from "./catalog.js";
import { fileOperationFields } from "./fileOperation.js";
import { logBetween, pick, unit } from "./random.js";
import { SALT } from "./salts.js";
import { textToCadFields } from "./textToCadOperation.js";
import { formatMicros, US_PER_HOUR, US_PER_SECOND } from "./time.js";
import type { AsyncOperation, OperationStatus, OperationType } from "./types.js";

/** Where an operation stands at a given moment. */
export interface OperationState {
  status: OperationStatus;
  startedUs: number | null;
  completedUs: number | null;
  updatedUs: number;
}

/**
 * Status over time (spec ApiCallStatus): queued, then uploaded (conversions only: the input was
 * stored), then in_progress, then completed or failed (~5%) seconds to minutes after the call. ~2%
 * run for hours, so a poller meets in_progress for real. A pure function of (seed, i, now).
 */
export function operationStateOf(
  seed: number,
  i: number,
  type: OperationType,
  createdUs: number,
  nowUs: number,
): OperationState {
  const queuedUntil = createdUs + Math.round(logBetween(seed, i, SALT.opQueued, 0.2, 15) * US_PER_SECOND);
  const uploadedFor =
    type === "file_conversion"
      ? Math.round(logBetween(seed, i, SALT.opUploaded, 0.5, 20) * US_PER_SECOND)
      : 0;
  const inProgressFrom = queuedUntil + uploadedFor;
  const long = unit(seed, i, SALT.opLong) < 0.02;
  const runUs = long
    ? Math.round(logBetween(seed, i, SALT.opRun, 2, 36) * US_PER_HOUR)
    : Math.round(logBetween(seed, i, SALT.opRun, 2, 480) * US_PER_SECOND);
  const doneAt = inProgressFrom + runUs;

  if (nowUs < queuedUntil)
    return { status: "queued", startedUs: null, completedUs: null, updatedUs: createdUs };
  if (nowUs < inProgressFrom) {
    return { status: "uploaded", startedUs: null, completedUs: null, updatedUs: queuedUntil };
  }
  if (nowUs < doneAt) {
    return { status: "in_progress", startedUs: inProgressFrom, completedUs: null, updatedUs: inProgressFrom };
  }
  const failed = operationFails(seed, i);
  return {
    status: failed ? "failed" : "completed",
    startedUs: inProgressFrom,
    completedUs: doneAt,
    updatedUs: doneAt,
  };
}

/** Identity of the call that started the operation. */
export interface OperationOrigin {
  seed: number;
  index: number;
  type: OperationType;
  /** The operation id is the call id (spec: "This is the same as the API call ID"). */
  id: string;
  userId: string;
  createdUs: number;
}

/** The AsyncApiCallOutput variant for the operation at `nowUs`, valid against the spec schema. */
export function buildOperation(origin: OperationOrigin, nowUs: number): AsyncOperation {
  const { seed, index, type } = origin;
  const state = operationStateOf(seed, index, type, origin.createdUs, nowUs);
  const family = type.startsWith("file_") ? FILE_ERRORS : TEXT_TO_CAD_ERRORS;
  const common: AsyncOperation = {
    type,
    id: origin.id,
    user_id: origin.userId,
    status: state.status,
    created_at: formatMicros(origin.createdUs),
    updated_at: formatMicros(state.updatedUs),
    started_at: state.startedUs === null ? null : formatMicros(state.startedUs),
    completed_at: state.completedUs === null ? null : formatMicros(state.completedUs),
    error: state.status === "failed" ? pick(family, seed, index, SALT.opError) : null,
  };
  const fields = type.startsWith("file_")
    ? fileOperationFields(seed, index, type, state.status)
    : textToCadFields(seed, index, type, state.status);
  return { ...common, ...fields };
}
