import { z } from "zod";

/**
 * The error body of every non-2xx response (components.schemas.Error). `error_code` is omitted, never
 * null, when absent (spec: optional, not nullable). Loose so that any field added later survives into logs.
 */
export const ApiErrorBodySchema = z.looseObject({
  error_code: z.string().optional(),
  message: z.string(),
  request_id: z.string(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBodySchema>;
