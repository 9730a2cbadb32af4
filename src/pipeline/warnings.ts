/** Distinct kinds of warning a run reports one by one; any more are counted in one closing line. */
const MAX_KINDS = 20;
/** A warning can quote the API (an id, a token's text): a line is cut to this many characters. */
const MAX_LINE_CHARS = 400;

interface Kind {
  first: string;
  count: number;
}

/**
 * A run's warnings, kept small whatever the API does: the same kind repeated (one per call listed
 * out of order, say) is one line with the first example and a count, at most MAX_KINDS kinds are
 * listed, and each line is cut at MAX_LINE_CHARS. The log is told the first of each kind only, so
 * stderr stays as small as the summary, the `--json` output and `runs.message`.
 */
export class RunWarnings {
  private readonly kinds = new Map<string, Kind>();
  /** Warnings of kinds past MAX_KINDS, and how many kinds that was. */
  private overflow = { count: 0, kinds: new Set<string>() };

  constructor(private readonly log: (line: string) => void) {}

  /** Adds a warning; `kind` groups warnings that differ only in their details (default: the text). */
  add(message: string, kind: string = message): void {
    const known = this.kinds.get(kind);
    if (known !== undefined) {
      known.count += 1;
      return;
    }
    const line = cut(message);
    if (this.kinds.size < MAX_KINDS) {
      this.kinds.set(kind, { first: line, count: 1 });
      this.log(line);
      return;
    }
    if (this.overflow.count === 0)
      this.log(`more than ${MAX_KINDS} kinds of warning: the rest are only counted in the run's summary`);
    this.overflow.count += 1;
    // Bounded too: past the cap only the number of kinds matters, not which.
    if (this.overflow.kinds.size < 10_000) this.overflow.kinds.add(kind);
  }

  /** The summary's lines: one per kind, repeats counted, then what was left out. */
  lines(): string[] {
    const lines = [...this.kinds.values()].map(({ first, count }) =>
      count === 1 ? first : `${first} (and ${count - 1} more like it)`,
    );
    if (this.overflow.count > 0)
      lines.push(
        `${this.overflow.count} more warning(s) of ${this.overflow.kinds.size >= 10_000 ? "10000+" : this.overflow.kinds.size} other kind(s) not listed`,
      );
    return lines;
  }
}

function cut(message: string): string {
  return message.length <= MAX_LINE_CHARS ? message : `${message.slice(0, MAX_LINE_CHARS - 1)}…`;
}
