import { z } from "zod";
import { invalidBody } from "./invalidBody.js";

/** The page envelope only (ApiCallWithPriceResultsPage: `items` required, `next_page` nullable). */
const PageEnvelopeSchema = z.looseObject({
  items: z.array(z.unknown()),
  next_page: z.string().nullable().optional(),
});

/**
 * A ResultsPage body's items, unvalidated (each is checked on its own downstream), and its next
 * page's token. A body without the envelope is `api.invalid_response`, named by `where`.
 */
export function pageEnvelope(
  body: unknown,
  where: string,
  requestId: string | undefined,
): { items: unknown[]; nextPage: string | null } {
  const envelope = PageEnvelopeSchema.safeParse(body);
  if (!envelope.success) throw invalidBody(where, requestId, envelope.error);
  return { items: envelope.data.items, nextPage: envelope.data.next_page ?? null };
}
