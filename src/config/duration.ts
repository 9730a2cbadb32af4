import { ZooUsageError } from "../errors.js";

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration flag's value ("3d", "36h", "90m", or a bare number of days) in ms; `flag` names it in errors. */
export function parseDuration(text: string, flag: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([mhd]?)\s*$/.exec(text);
  if (match === null) {
    throw new ZooUsageError({
      code: "config.invalid",
      message: `${flag} ${JSON.stringify(text)} is not a duration`,
      hint: "Use a number of days, hours or minutes: 3d, 36h, 90m.",
    });
  }
  return Math.round(Number(match[1]) * (UNIT_MS[match[2] || "d"] ?? UNIT_MS.d ?? 0));
}
