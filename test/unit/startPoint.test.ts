import { expect, test } from "vitest";
import type { Checkpoint } from "../../src/load/checkpoint.js";
import type { Warehouse } from "../../src/load/database.js";
import { SecretBox } from "../../src/secrets/secretBox.js";
import { chooseStartPoint } from "../../src/sources/calls/startPoint.js";
import { withTempWarehouse } from "../helpers/exportHarness.js";

/**
 * Every way chooseStartPoint decides where a run starts, against a real warehouse (the ladder is a
 * table) and real sealing: the key of this export, and another key for tokens it cannot open.
 */
const secrets = new SecretBox(Buffer.alloc(32, 1));
const otherKey = new SecretBox(Buffer.alloc(32, 2));
const DAY_MS = 86_400_000;
const options = { fullRefresh: false, lookbackMs: 2 * DAY_MS, secrets };

/** The high-water mark of the tests' history; with a 2-day lookback the window starts 2026-11-18. */
const HIGH_WATER = "2026-11-20T12:00:00.000000Z";
const WINDOW_START = "2026-11-18T12:00:00.000000Z";

function state(overrides: Partial<Checkpoint>): Checkpoint {
  return { userId: null, resumeToken: null, highWaterCreated: null, ...overrides };
}

async function addRung(warehouse: Warehouse, lastCreatedAt: string, sealedToken: string): Promise<void> {
  await warehouse.connection.run(
    "INSERT INTO internal.page_ladder (last_created_at, token, run_id) VALUES ($at::TIMESTAMPTZ, $token, 'run-1')",
    { at: lastCreatedAt, token: sealedToken },
  );
}

test("resume: an interrupted scan continues from its stored token", async () => {
  await withTempWarehouse(async (warehouse) => {
    // A ladder and a high-water mark are there too: the resume token wins over both.
    await addRung(warehouse, "2026-11-01T00:00:00Z", secrets.seal("rung-token"));
    const start = await chooseStartPoint(
      warehouse,
      state({ resumeToken: secrets.seal("resume-token"), highWaterCreated: HIGH_WATER }),
      options,
    );
    expect(start).toEqual({ mode: "resume", token: "resume-token", reason: expect.stringMatching(/resum/) });
  });
});

test("a resume token this key cannot open: a full scan, saying why", async () => {
  await withTempWarehouse(async (warehouse) => {
    await addRung(warehouse, "2026-11-01T00:00:00Z", secrets.seal("rung-token"));
    const start = await chooseStartPoint(
      warehouse,
      state({ resumeToken: otherKey.seal("resume-token"), highWaterCreated: HIGH_WATER }),
      options,
    );
    expect(start.mode).toBe("full");
    expect(start.token).toBeNull();
    expect(start.reason).toMatch(/resume token cannot be opened/);
  });
});

test("a resume token that is not a sealed value at all: a full scan", async () => {
  await withTempWarehouse(async (warehouse) => {
    const start = await chooseStartPoint(warehouse, state({ resumeToken: "plain-page-token" }), options);
    expect(start).toMatchObject({ mode: "full", token: null });
  });
});

test("--full-refresh: a full scan even with a usable rung", async () => {
  await withTempWarehouse(async (warehouse) => {
    await addRung(warehouse, "2026-11-01T00:00:00Z", secrets.seal("rung-token"));
    const start = await chooseStartPoint(warehouse, state({ highWaterCreated: HIGH_WATER }), {
      ...options,
      fullRefresh: true,
    });
    expect(start).toEqual({ mode: "full", token: null, reason: expect.stringMatching(/--full-refresh/) });
  });
});

test("--full-refresh after an interrupted scan: from the first page, not from the resume token", async () => {
  await withTempWarehouse(async (warehouse) => {
    const start = await chooseStartPoint(
      warehouse,
      state({ resumeToken: secrets.seal("resume-token"), highWaterCreated: HIGH_WATER }),
      { ...options, fullRefresh: true },
    );
    expect(start).toEqual({ mode: "full", token: null, reason: expect.stringMatching(/--full-refresh/) });
  });
});

test("first run (no high-water mark): a full scan", async () => {
  await withTempWarehouse(async (warehouse) => {
    const start = await chooseStartPoint(warehouse, state({}), options);
    expect(start).toEqual({ mode: "full", token: null, reason: expect.stringMatching(/first run/) });
  });
});

test("no rung before the window (none at all, or only inside it): a full scan naming the window", async () => {
  await withTempWarehouse(async (warehouse) => {
    const atHighWater = state({ highWaterCreated: HIGH_WATER });
    const empty = await chooseStartPoint(warehouse, atHighWater, options);
    expect(empty).toEqual({ mode: "full", token: null, reason: expect.stringContaining(WINDOW_START) });
    // A rung exactly at the window's start, or after it, would skip calls of the window: not used.
    await addRung(warehouse, WINDOW_START, secrets.seal("at-window-start"));
    await addRung(warehouse, "2026-11-19T00:00:00Z", secrets.seal("inside-window"));
    const inside = await chooseStartPoint(warehouse, atHighWater, options);
    expect(inside).toMatchObject({ mode: "full", token: null });
  });
});

test("a rung this key cannot open: a full scan, saying why", async () => {
  await withTempWarehouse(async (warehouse) => {
    await addRung(warehouse, "2026-11-10T00:00:00Z", otherKey.seal("rung-token"));
    const start = await chooseStartPoint(warehouse, state({ highWaterCreated: HIGH_WATER }), options);
    expect(start.mode).toBe("full");
    expect(start.token).toBeNull();
    expect(start.reason).toMatch(/no stored page token before .* opens with this secret key/);
  });
});

test("rungs of a key given up are passed over: from the newest rung this key opens", async () => {
  await withTempWarehouse(async (warehouse) => {
    await addRung(warehouse, "2026-11-01T00:00:00Z", otherKey.seal("older-other-key"));
    await addRung(warehouse, "2026-11-05T00:00:00Z", secrets.seal("newest-of-this-key"));
    await addRung(warehouse, "2026-11-10T00:00:00Z", otherKey.seal("newest-other-key"));
    const start = await chooseStartPoint(warehouse, state({ highWaterCreated: HIGH_WATER }), options);
    expect(start).toMatchObject({ mode: "incremental", token: "newest-of-this-key" });
  });
});

test("incremental: from the newest rung strictly before the window", async () => {
  await withTempWarehouse(async (warehouse) => {
    await addRung(warehouse, "2026-11-01T00:00:00Z", secrets.seal("older"));
    await addRung(warehouse, "2026-11-18T11:59:59.999999Z", secrets.seal("newest-before"));
    await addRung(warehouse, WINDOW_START, secrets.seal("at-window-start"));
    await addRung(warehouse, "2026-11-20T00:00:00Z", secrets.seal("inside-window"));
    const start = await chooseStartPoint(warehouse, state({ highWaterCreated: HIGH_WATER }), options);
    expect(start).toEqual({
      mode: "incremental",
      token: "newest-before",
      reason: expect.stringContaining(WINDOW_START),
    });
  });
});
