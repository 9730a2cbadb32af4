import { InvalidArgumentError } from "commander";

/** Commander argument parsers that name the flag's expectation in the error. */
export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n <= 0) {
    throw new InvalidArgumentError(`expected a positive integer, got ${JSON.stringify(value)}`);
  }
  return n;
}

export function nonNegativeInteger(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) {
    throw new InvalidArgumentError(`expected a non-negative integer, got ${JSON.stringify(value)}`);
  }
  return n;
}

export function nonNegativeNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) {
    throw new InvalidArgumentError(`expected a non-negative number, got ${JSON.stringify(value)}`);
  }
  return n;
}

export function positiveNumber(value: string): number {
  const n = nonNegativeNumber(value);
  if (n === 0) throw new InvalidArgumentError(`expected a positive number, got ${JSON.stringify(value)}`);
  return n;
}

export function probability(value: string): number {
  const n = nonNegativeNumber(value);
  if (n > 1) throw new InvalidArgumentError(`expected a rate between 0 and 1, got ${JSON.stringify(value)}`);
  return n;
}

export function isoDate(value: string): Date {
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) {
    throw new InvalidArgumentError(
      `expected an ISO 8601 date such as 2026-11-01T00:00:00Z, got ${JSON.stringify(value)}`,
    );
  }
  return new Date(ms);
}
