import { isIP } from "node:net";
import { ZooUsageError } from "../errors.js";

/**
 * A bearer token sent over plain http can be read by anyone on the path. Loopback is the only
 * exception (the local simulator, a local proxy): those bytes never leave the machine.
 */
export function assertSecureTransport(baseUrl: URL): void {
  if (baseUrl.protocol === "https:" || isLoopback(baseUrl.hostname)) return;
  throw new ZooUsageError({
    code: "config.insecure_transport",
    message: `Refusing to send the API token over plain http to ${baseUrl.host}`,
    hint: "Use an https:// base URL. Plain http is only allowed to loopback addresses (localhost, 127.0.0.0/8, ::1).",
  });
}

export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (isIP(host) === 4) return host.startsWith("127.");
  if (isIP(host) === 6) return host === "::1" || host === "0:0:0:0:0:0:0:1";
  return false;
}
