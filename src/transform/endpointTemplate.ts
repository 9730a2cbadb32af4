import { SPEC_PATHS } from "./specPaths.js";

/**
 * Routes that served async jobs before they left the spec (text-to-cad moved in 2025); calls made
 * through them stay in a user's history, so they are templated like the current ones.
 */
export const LEGACY_PATHS: readonly string[] = [
  "/ai/text-to-cad/{output_format}",
  "/ml/text-to-cad/iteration",
  "/ml/text-to-cad/multi-file/iteration",
];

interface CompiledTemplate {
  template: string;
  segments: readonly (string | null)[];
  /** Literal segments count: the most specific template wins (`/user/api-calls` over `/user/{id}`). */
  literals: number;
}

const UUID_SEGMENT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMBER_SEGMENT = /^\d+$/;

/**
 * Maps a concrete endpoint (`/file/conversion/step/obj`) to its route template
 * (`/file/conversion/{src_format}/{output_format}`). Paths no template matches fall back to
 * replacing uuids with `{id}` and numbers with `{n}`, so cost per endpoint still groups them.
 */
export class EndpointTemplater {
  private readonly byLength = new Map<number, CompiledTemplate[]>();
  /**
   * The candidates of `byLength` narrowed by the first segment (e.g. "async", "file"), same order:
   * the templates whose first segment is that literal or a parameter. Uuids make many endpoints
   * unique (`/async/operations/{id}` is polled a lot), so most lookups miss the cache and match.
   */
  private readonly byFirstSegment = new Map<number, Map<string, CompiledTemplate[]>>();
  private readonly cache = new Map<string, string>();

  constructor(templates: readonly string[] = [...SPEC_PATHS, ...LEGACY_PATHS]) {
    for (const template of templates) {
      const segments = template.split("/").map((segment) => (/^\{.+\}$/.test(segment) ? null : segment));
      const compiled = { template, segments, literals: segments.filter((s) => s !== null).length };
      const list = this.byLength.get(segments.length) ?? [];
      list.push(compiled);
      this.byLength.set(segments.length, list);
    }
    for (const [length, list] of this.byLength) {
      list.sort((a, b) => b.literals - a.literals);
      const byFirst = new Map<string, CompiledTemplate[]>();
      for (const first of new Set(list.map((candidate) => candidate.segments[1]))) {
        if (typeof first !== "string") continue;
        byFirst.set(
          first,
          list.filter((candidate) => (candidate.segments[1] ?? first) === first),
        );
      }
      this.byFirstSegment.set(length, byFirst);
    }
  }

  templateOf(endpoint: string): string {
    const cached = this.cache.get(endpoint);
    if (cached !== undefined) return cached;
    const result = this.match(endpoint);
    // Concrete endpoints repeat a lot (the same conversion pair, /user); uuids make the rest unique.
    // Bounded: start again when full, so that the common endpoints are cached again soon.
    if (this.cache.size >= 50_000) this.cache.clear();
    this.cache.set(endpoint, result);
    return result;
  }

  private match(endpoint: string): string {
    const path = endpoint.split("?")[0] ?? "";
    const segments = path.split("/");
    const first = segments[1];
    const candidates =
      (first === undefined ? undefined : this.byFirstSegment.get(segments.length)?.get(first)) ??
      this.byLength.get(segments.length) ??
      [];
    for (const candidate of candidates) {
      if (candidate.segments.every((literal, i) => literal === null || literal === segments[i])) {
        return candidate.template;
      }
    }
    return segments
      .map((segment) =>
        UUID_SEGMENT.test(segment) ? "{id}" : NUMBER_SEGMENT.test(segment) ? "{n}" : segment,
      )
      .join("/");
  }
}
