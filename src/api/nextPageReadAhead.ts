import type { RequestContext } from "./getAttempt.js";
import { peekNextPage, peekNextPageAtHead } from "./itemsJson.js";

/**
 * The request hooks that tell `onNextPageSeen` a listing page's next token before the body is
 * parsed, once: from the body's first bytes while the rest is still arriving (Dropshot's order,
 * token first), or from its tail once it is in.
 */
export function nextPageReadAhead(
  onNextPageSeen: (token: string) => void,
): Required<Pick<RequestContext, "onHead" | "onBody">> {
  let seen = false;
  return {
    onHead: (head) => {
      const peek = peekNextPageAtHead(head);
      if (peek === "more") return false;
      if (peek !== "none" && !seen) {
        seen = true;
        onNextPageSeen(peek.token);
      }
      return true;
    },
    // The tail of an items-first body, or the head of a token-first one too long to watch.
    onBody: (bytes) => {
      if (seen) return;
      const token = peekNextPage(bytes);
      if (token === undefined) return;
      seen = true;
      onNextPageSeen(token);
    },
  };
}
