/**
 * A fetched operation body as `rejects.raw_json` keeps it. Output files are dropped from a rejected
 * body too: the database never holds CAD data.
 */
export function rawOperationJson(body: unknown): string {
  try {
    if (body !== null && typeof body === "object" && "outputs" in body) {
      return JSON.stringify({
        ...(body as Record<string, unknown>),
        outputs: "[removed: output files are not stored]",
      });
    }
    return JSON.stringify(body) ?? String(body);
  } catch {
    return String(body);
  }
}
