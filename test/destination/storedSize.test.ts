import { expect, test } from "vitest";
import { expectStoredSize } from "../../src/destination/storedSize.js";

const URL = "s3://bucket/api_calls/created_month=2026-10/data.parquet";

/** A store whose HEAD answers the sizes given, one per ask, the last one from then on. */
function store(sizes: (number | undefined)[], stop = new AbortController().signal) {
  let asked = 0;
  return {
    asks: () => asked,
    storedSize: async () => sizes[Math.min(asked++, sizes.length - 1)],
    stop,
  };
}

test("a size the store reports at once passes with one ask", async () => {
  const answers = store([1000]);
  await expectStoredSize(URL, 1000, answers);
  expect(answers.asks()).toBe(1);
});

test("a store that answers from before its own write is asked again, and passes once it catches up", async () => {
  const answers = store([0, 0, 1000]);
  await expectStoredSize(URL, 1000, answers);
  expect(answers.asks()).toBe(3);
});

test("an object that stays short is output.s3_incomplete (exit 3) after four asks", async () => {
  const answers = store([512]);
  await expect(expectStoredSize(URL, 1000, answers)).rejects.toMatchObject({
    code: "output.s3_incomplete",
    exitCode: 3,
    message: `The store acknowledged the upload of ${URL} but holds 512 bytes of the 1000 sent`,
  });
  expect(answers.asks()).toBe(4);
});

test("the run's stop ends the wait between asks", async () => {
  const stop = new AbortController();
  const answers = store([0], stop.signal);
  const checked = expectStoredSize(URL, 1000, answers);
  stop.abort();
  await expect(checked).rejects.toMatchObject({ name: "AbortError" });
  expect(answers.asks()).toBe(1);
});
