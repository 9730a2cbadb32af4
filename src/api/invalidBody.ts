import { z } from "zod";
import { ZooUsageError } from "../errors.js";

/** A response whose body does not match the API schema: `where` names the request, as "GET /org". */
export function invalidBody(where: string, requestId: string | undefined, error: z.ZodError): ZooUsageError {
  return new ZooUsageError({
    code: "api.invalid_response",
    message: `${where} returned a body that does not match the API schema${requestId ? ` (request id ${requestId})` : ""}:\n${z.prettifyError(error)}`,
    hint: "The API may have changed. Upgrade zoo-usage, or report this with the request id.",
    cause: error,
    requestId,
  });
}
