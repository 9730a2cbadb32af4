/**
 * A local Zoo API simulator: GET /user/api-calls, GET /user/api-calls/{id} and
 * GET /async/operations/{id} behaving as api.zoo.dev does (docs/simulator.md), on
 * seeded, lazily generated data. Used by the tests, the demo and the benchmark; nothing in the
 * pipeline imports it.
 */
export type { SimClock } from "./clock.js";
export { createDataset, Dataset, type DatasetOptions, DEFAULT_NOW_ISO } from "./dataset.js";
export type { SortKey, SortMode } from "./keysetPage.js";
export type { LateBillingOptions } from "./lateBilling.js";
export { decodePageToken, encodePageToken } from "./pageToken.js";
export type { GatedRequest, HoldMatch, RequestGate } from "./requestGate.js";
export { type RunningSimulator, startSimulator } from "./server.js";
export type {
  ApiCallRecord,
  AsyncOperation,
  FaultOptions,
  OperationStatus,
  OperationType,
  SimUser,
  SimulatorOptions,
} from "./types.js";
