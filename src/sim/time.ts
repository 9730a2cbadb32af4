/**
 * Simulated time is integer microseconds since the Unix epoch (a JS number holds them exactly until
 * the year 2255). Zoo keeps microseconds (Postgres `timestamptz`) and writes them through chrono,
 * whose RFC 3339 form (SecondsFormat::AutoSi, `Z`) has 0, 3, 6 or 9 fraction digits: none for a
 * whole second, 3 for a whole millisecond, else 6 ("2026-08-03T12:34:56.123456Z"); so does the
 * simulator.
 */

export const US_PER_MS = 1_000;
export const US_PER_SECOND = 1_000_000;
export const US_PER_MINUTE = 60 * US_PER_SECOND;
export const US_PER_HOUR = 60 * US_PER_MINUTE;
export const US_PER_DAY = 24 * US_PER_HOUR;

const PAD2 = Array.from({ length: 100 }, (_, n) => n.toString().padStart(2, "0"));
const PAD3 = Array.from({ length: 1000 }, (_, n) => n.toString().padStart(3, "0"));

/** RFC 3339 UTC with chrono's fraction digits (hand-rolled: Date#toISOString always writes 3). */
export function formatMicros(us: number): string {
  const days = Math.floor(us / US_PER_DAY);
  return `${civilDate(days)}${timeOfDay(us - days * US_PER_DAY)}`;
}

/** "YYYY-MM-DDT" of a day number since 1970-01-01 (civil-from-days, H. Hinnant), years 0..9999. */
export function civilDate(days: number): string {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, "0")}-${PAD2[month]}-${PAD2[day]}T`;
}

/**
 * How many fraction digits chrono writes for `us` microseconds past a second (AutoSi): 0, 3 or 6
 * (9 needs nanoseconds, which a microsecond clock never has).
 */
export function fractionDigits(us: number): 0 | 3 | 6 {
  if (us === 0) return 0;
  return us % 1000 === 0 ? 3 : 6;
}

/** "HH:MM:SS[.fff[fff]]Z" of a microsecond offset within a day. */
function timeOfDay(us: number): string {
  const hour = Math.floor(us / US_PER_HOUR);
  let rest = us - hour * US_PER_HOUR;
  const minute = Math.floor(rest / US_PER_MINUTE);
  rest -= minute * US_PER_MINUTE;
  const second = Math.floor(rest / US_PER_SECOND);
  rest -= second * US_PER_SECOND;
  const milli = Math.floor(rest / 1000);
  const whole = `${PAD2[hour]}:${PAD2[minute]}:${PAD2[second]}`;
  const digits = fractionDigits(rest);
  if (digits === 0) return `${whole}Z`;
  if (digits === 3) return `${whole}.${PAD3[milli]}Z`;
  return `${whole}.${PAD3[milli]}${PAD3[rest - milli * 1000]}Z`;
}

const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp to microseconds (digits past the sixth are truncated), or null. */
export function parseMicros(text: string): number | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const offset = m[4] === "z" ? "Z" : (m[4] ?? "Z");
  const ms = Date.parse(`${m[1]}T${m[2]}${offset}`);
  if (Number.isNaN(ms)) return null;
  const fraction = (m[3] ?? "").padEnd(6, "0").slice(0, 6);
  return ms * US_PER_MS + Number(fraction);
}

export function microsFromDate(date: Date): number {
  return date.getTime() * US_PER_MS;
}
