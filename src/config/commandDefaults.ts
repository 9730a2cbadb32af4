/**
 * The defaults of the demo's and `operation get`'s own flags, apart from the config loaders (and
 * zod), so that the help shows them without loading either.
 */

/** The demo's own flag defaults (its export flags default as export's do). */
export const DEMO_DEFAULTS = { calls: 50_000 } as const;

/** The defaults of `operation get`'s own flags. */
export const OPERATION_GET_DEFAULTS = { timeoutSeconds: 600 } as const;
