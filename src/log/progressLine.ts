/** The counts a run's progress shows. */
export interface ProgressCounters {
  phase: string;
  pages: number;
  records: number;
  operations: number;
  rejected: number;
  retries: number;
  partitions: number;
  /** Stored calls pending billing asked again by id. */
  rereads: number;
}

/** What the live line shows at one moment. */
export interface ProgressView {
  counters: ProgressCounters;
  elapsedSeconds: number;
  /** The current phase's items done and, when known, how many it has in all. */
  done?: number;
  total?: number;
  /** The current phase's items per second over the last seconds, and what they are. */
  rate?: { perSecond: number; unit: string };
}

interface Field {
  text: string;
  /** Lower keeps longer: fields are dropped from the highest rank down until the line fits. */
  rank: number;
  /** Written before the field: ", " unless it belongs to the one before. */
  glue?: string;
}

/** A zero says little: such a counter goes before any that counts something. */
const ZERO_PENALTY = 100;

/**
 * The live line for a terminal `columns` wide: at most columns - 1 characters, so the cursor never
 * reaches the last column and the terminal never wraps it. Fields that do not fit are dropped,
 * least important first; the phase is cut short only when nothing else is left.
 */
export function formatProgressLine(view: ProgressView, columns: number): string {
  const max = Math.max(1, Math.floor(columns) - 1);
  const { counters } = view;
  const head = `${counters.phase}:`;
  const fields: Field[] = [];
  if (view.total !== undefined && view.done !== undefined) {
    const share = view.total === 0 ? 1 : Math.min(1, view.done / view.total);
    fields.push({ text: `${count(view.done)} / ${count(view.total)}`, rank: 2 });
    fields.push({ text: `${Math.floor(share * 100)}%`, rank: 0, glue: " " });
    const eta = etaSeconds(view.done, view.total, view.rate?.perSecond);
    if (eta !== undefined) fields.push({ text: `ETA ${duration(eta)}`, rank: 1 });
  }
  if (view.rate !== undefined)
    fields.push({ text: `${count(view.rate.perSecond)} ${view.rate.unit}/s`, rank: 3 });
  const counter = (value: number, unit: string, rank: number) =>
    fields.push({ text: `${count(value)} ${unit}`, rank: value === 0 ? rank + ZERO_PENALTY : rank });
  counter(counters.records, "records", 4);
  counter(counters.operations, "operations", 5);
  counter(counters.rejected, "rejected", 6);
  counter(counters.retries, "retries", 7);
  fields.push({ text: duration(view.elapsedSeconds), rank: 8 });
  counter(counters.pages, "pages", 9);
  counter(counters.partitions, "partitions", 10);
  // Most runs re-read nothing: the count shows only once there is one.
  if (counters.rereads > 0) counter(counters.rereads, "re-reads", 11);
  const kept = [...fields];
  const line = () =>
    kept.reduce((text, field, i) => `${text}${i === 0 ? " " : (field.glue ?? ", ")}${field.text}`, head);
  while (kept.length > 0 && line().length > max) {
    const worst = kept.reduce((a, b) => (b.rank > a.rank ? b : a));
    kept.splice(kept.indexOf(worst), 1);
  }
  const text = line();
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Seconds left at the current rate, when there is one to go by. */
function etaSeconds(done: number, total: number, perSecond: number | undefined): number | undefined {
  if (perSecond === undefined || perSecond <= 0) return undefined;
  return Math.max(0, total - done) / perSecond;
}

function count(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

/** 42s, 3m05s, 2h07m. */
export function duration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return `${whole}s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes}m${String(whole % 60).padStart(2, "0")}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, "0")}m`;
}
