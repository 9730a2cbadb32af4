import { expect, test } from "vitest";
import { toTheMillisecond } from "../../src/pipeline/exportApiCalls.js";

test.each([
  [0.1 + 0.2, 0.3, "0.3"],
  [10.574000000000002, 10.574, "10.574"],
  [1.0004999, 1, "1"],
  [2.0005, 2.001, "2.001"],
  [0, 0, "0"],
])("%d seconds print as %s: no float noise in phase_seconds", (seconds, rounded, printed) => {
  const phases = toTheMillisecond({
    prepare: seconds,
    scan: seconds,
    account: 0,
    operations: seconds,
    parquet: 0,
  });
  expect(phases.prepare).toBe(rounded);
  expect(JSON.stringify(phases)).toBe(
    `{"prepare":${printed},"scan":${printed},"account":0,"operations":${printed},"parquet":0}`,
  );
});
