import { DuckDBInstance, LIST, listValue, VARCHAR } from "@duckdb/node-api";
import { describe, expect, test } from "vitest";
import {
  comparePartitions,
  PARTITION_FORMAT,
  partitionOf,
  partitionRange,
  partitionsBetween,
} from "../../src/load/partitioning.js";

describe("partition values", () => {
  test("a time's partition is its UTC month or day, whatever its offset", () => {
    expect(partitionOf("month", "2026-10-31T23:59:59.999999Z")).toBe("2026-10");
    expect(partitionOf("month", "2026-11-01T01:30:00+02:00")).toBe("2026-10");
    expect(partitionOf("day", "2026-11-01T01:30:00+02:00")).toBe("2026-10-31");
    expect(partitionOf("day", "2026-11-01T00:00:00Z")).toBe("2026-11-01");
  });

  test("a time lies in the range of its own partition", () => {
    for (const partitioning of ["month", "day"] as const) {
      for (const time of ["2026-02-28T23:00:00-03:00", "2026-12-31T23:59:59Z", "2026-01-01T00:00:00Z"]) {
        const { start, end } = partitionRange(partitioning, partitionOf(partitioning, time));
        expect(Date.parse(start)).toBeLessThanOrEqual(Date.parse(time));
        expect(Date.parse(time)).toBeLessThan(Date.parse(end));
      }
    }
  });

  test("the partitions between two, both included, cross years, month ends and leap days", () => {
    expect([...partitionsBetween("month", "2025-11", "2026-02")]).toEqual([
      "2025-11",
      "2025-12",
      "2026-01",
      "2026-02",
    ]);
    expect([...partitionsBetween("day", "2028-02-27", "2028-03-01")]).toEqual([
      "2028-02-27",
      "2028-02-28",
      "2028-02-29",
      "2028-03-01",
    ]);
    expect([...partitionsBetween("day", "2026-12-31", "2026-12-31")]).toEqual(["2026-12-31"]);
    expect([...partitionsBetween("month", "2026-03", "2026-02")]).toEqual([]);
  });

  test("the last partitions of year 9999 end at year 10000 in text DuckDB reads, and years 0-99 stay themselves", () => {
    expect(partitionRange("month", "9999-12")).toEqual({
      start: "9999-12-01T00:00:00.000Z",
      end: "10000-01-01T00:00:00.000Z",
    });
    expect(partitionRange("day", "9999-12-31").end).toBe("10000-01-01T00:00:00.000Z");
    expect(partitionRange("month", "0001-01")).toEqual({
      start: "0001-01-01T00:00:00.000Z",
      end: "0001-02-01T00:00:00.000Z",
    });
    expect(partitionOf("month", "9999-12-31T23:59:59Z")).toBe("9999-12");
  });

  test("five-digit years (DuckDB's strftime past 9999, in a warehouse of an older version) sort after 9999", () => {
    expect(partitionOf("month", "9999-12-31T23:59:59-05:00")).toBe("10000-01");
    expect(partitionOf("day", "10000-01-01T00:00:00.000Z")).toBe("10000-01-01");
    expect([...partitionsBetween("month", "9999-11", "10000-02")]).toEqual([
      "9999-11",
      "9999-12",
      "10000-01",
      "10000-02",
    ]);
    expect(["10000-01", "2026-10", "9999-12"].sort(comparePartitions)).toEqual([
      "2026-10",
      "9999-12",
      "10000-01",
    ]);
  });
});

describe("partition values agree with DuckDB's", () => {
  test("for UTC times and offsets, across month, year and leap-day edges, years 1 to 10000", async () => {
    const times = [
      "2026-10-31T23:59:59.999999Z",
      "2026-10-31T23:59:59.123456789Z",
      "2026-11-01T00:00:00Z",
      "2026-11-01T00:30:00+01:00",
      "2026-10-31T23:30:00-01:00",
      "2028-02-29T12:00:00Z",
      "1969-12-31T23:59:59.999999Z",
      "0001-01-01T00:00:00Z",
      "0099-12-31T23:59:59Z",
      "0999-01-01T00:00:00+01:00",
      "9999-12-31T23:00:00Z",
      "9999-12-31T23:00:00-05:00",
    ];
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    try {
      for (const partitioning of ["month", "day"] as const) {
        const reader = await connection.runAndReadAll(
          `SELECT strftime(timezone('UTC', t::TIMESTAMPTZ), $format) FROM unnest($times) AS u(t)`,
          { times: listValue(times), format: PARTITION_FORMAT[partitioning] },
          { times: LIST(VARCHAR), format: VARCHAR },
        );
        const duckdb = reader.getRows().map((row) => row[0]);
        expect(times.map((time) => partitionOf(partitioning, time))).toEqual(duckdb);
      }
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
