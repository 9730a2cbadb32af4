import { type CallTimeBounds, UNBOUNDED_CALL_TIMES } from "../../load/operationLoader.js";

/** created_at as OperationCandidates writes it (DuckDB's strftime): same width, so text order is time order. */
const FIXED_WIDTH_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * When the calls behind a batch of operations were created: the earliest and the latest of their
 * candidates' created_at, the bounds the loader's join reads api_calls within. A time missing or in
 * another form (a year before 1000 or after 9999) leaves the span unbounded: the join then reads the
 * whole table, slower but the same rows.
 */
export class CallTimeSpan {
  #from: string | undefined;
  #to: string | undefined;
  #unbounded = false;

  add(createdAt: string | undefined): void {
    if (createdAt === undefined || !FIXED_WIDTH_TIME.test(createdAt)) {
      this.#unbounded = true;
      return;
    }
    if (this.#from === undefined || createdAt < this.#from) this.#from = createdAt;
    if (this.#to === undefined || createdAt > this.#to) this.#to = createdAt;
  }

  bounds(): CallTimeBounds {
    if (this.#unbounded || this.#from === undefined || this.#to === undefined) return UNBOUNDED_CALL_TIMES;
    return { from: this.#from, to: this.#to };
  }
}
