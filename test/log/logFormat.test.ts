import { expect, test } from "vitest";
import { createLogger } from "../../src/log/logger.js";

const AT = new Date("2026-10-01T02:15:00.123Z");

function captured(format: "text" | "json") {
  const lines: string[] = [];
  const logger = createLogger({ level: "info", format, write: (line) => lines.push(line), now: () => AT });
  return { lines, logger };
}

test("json: one object a line, time in UTC with Z, fields only when given, below-level lines dropped", () => {
  const { lines, logger } = captured("json");
  logger.debug("not shown");
  logger.info("scan: first run");
  logger.warn("slow", { retries: 3, endpoint: "/user/api-calls" });
  expect(lines.map((line) => JSON.parse(line))).toEqual([
    { time: "2026-10-01T02:15:00.123Z", level: "info", message: "scan: first run" },
    {
      time: "2026-10-01T02:15:00.123Z",
      level: "warn",
      message: "slow",
      fields: { retries: 3, endpoint: "/user/api-calls" },
    },
  ]);
});

test("json: line breaks and terminal controls in a message are escaped, and parse back", () => {
  const { lines, logger } = captured("json");
  const hostile = "a\nb\u001b[31m\u009b2J\u2028c";
  logger.error(hostile);
  expect(lines).toHaveLength(1);
  const controls = [...(lines[0] ?? "")].filter((char) => {
    const code = char.charCodeAt(0);
    return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028;
  });
  expect(controls).toEqual([]);
  expect((JSON.parse(lines[0] ?? "") as { message: string }).message).toBe(hostile);
});

test("text: fields follow the message as key=value", () => {
  const { lines, logger } = captured("text");
  logger.info("page", { records: 1000 });
  expect(lines).toEqual(["2026-10-01T02:15:00.123Z info  page records=1000"]);
});
