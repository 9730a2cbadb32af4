import { describe, expect, test } from "vitest";
import { AdaptiveConcurrency } from "../../src/extract/adaptiveConcurrency.js";

/** Feeds one full window of successes at `latencyMs` (as many as the current limit). */
function window(controller: AdaptiveConcurrency, latencyMs: number): void {
  const size = controller.limit;
  for (let i = 0; i < size; i++) controller.onSuccess(latencyMs);
}

describe("adaptive concurrency", () => {
  test("grows by one per window of successes while latency stays flat, up to the cap", () => {
    const controller = new AdaptiveConcurrency({ start: 4, cap: 10 });
    expect(controller.limit).toBe(4);
    window(controller, 20);
    expect(controller.limit).toBe(5);
    window(controller, 25);
    expect(controller.limit).toBe(6);
    for (let i = 0; i < 20; i++) window(controller, 20);
    expect(controller.limit).toBe(10);
    expect(controller.peak).toBe(10);
  });

  test("does not grow before a window is complete", () => {
    const controller = new AdaptiveConcurrency({ start: 4, cap: 10 });
    for (let i = 0; i < 3; i++) controller.onSuccess(20);
    expect(controller.limit).toBe(4);
    controller.onSuccess(20);
    expect(controller.limit).toBe(5);
  });

  test("holds when the window's median latency rises past 1.5x the best seen, shrinks past 2.5x", () => {
    const controller = new AdaptiveConcurrency({ start: 4, cap: 32 });
    window(controller, 10);
    expect(controller.limit).toBe(5);
    window(controller, 16);
    expect(controller.limit).toBe(5);
    window(controller, 25);
    expect(controller.limit).toBe(5);
    window(controller, 26);
    expect(controller.limit).toBe(4);
    // Latency alone never takes it below its start.
    window(controller, 40);
    expect(controller.limit).toBe(4);
    // Back within 1.5x of the best: grows again.
    window(controller, 14);
    expect(controller.limit).toBe(5);
  });

  test("shrinking on latency stops at the start; only a refusal goes below it, to the floor", () => {
    const controller = new AdaptiveConcurrency({ start: 3, cap: 8, floor: 2 });
    window(controller, 1);
    expect(controller.limit).toBe(4);
    for (let i = 0; i < 10; i++) window(controller, 100);
    expect(controller.limit).toBe(3);
    controller.onRefused();
    expect(controller.limit).toBe(2);
  });

  test("the median, not one slow request, decides", () => {
    const controller = new AdaptiveConcurrency({ start: 5, cap: 32 });
    window(controller, 10);
    expect(controller.limit).toBe(6);
    for (const latency of [10, 10, 10, 10, 10, 500]) controller.onSuccess(latency);
    expect(controller.limit).toBe(7);
  });

  test("halves on a refusal, once per window, never below the floor", () => {
    const controller = new AdaptiveConcurrency({ start: 16, cap: 32 });
    controller.onRefused();
    expect(controller.limit).toBe(8);
    // The requests already in flight are refused too: one overload halves once.
    controller.onRefused();
    controller.onRefused();
    expect(controller.limit).toBe(8);
    for (let i = 0; i < 8; i++) controller.onSuccess(1000);
    controller.onRefused();
    expect(controller.limit).toBe(4);
    for (let step = 0; step < 10; step++) {
      for (let i = 0; i < controller.limit; i++) controller.onSuccess(1000);
      controller.onRefused();
    }
    expect(controller.limit).toBe(1);
    expect(controller.peak).toBe(16);
  });

  test("start is clamped into [floor, cap], and a cap of one never moves", () => {
    expect(new AdaptiveConcurrency({ start: 50, cap: 8 }).limit).toBe(8);
    expect(new AdaptiveConcurrency({ start: 0, cap: 8 }).limit).toBe(1);
    expect(new AdaptiveConcurrency({ start: 1, cap: 8, floor: 2 }).limit).toBe(2);
    const single = new AdaptiveConcurrency({ start: 4, cap: 1 });
    for (let i = 0; i < 10; i++) window(single, 5);
    single.onRefused();
    expect(single.limit).toBe(1);
  });

  test("after a halving, growth resumes on flat latency", () => {
    const controller = new AdaptiveConcurrency({ start: 8, cap: 16 });
    window(controller, 10);
    expect(controller.limit).toBe(9);
    controller.onRefused();
    expect(controller.limit).toBe(4);
    window(controller, 10);
    expect(controller.limit).toBe(5);
  });
});
