import { spawn } from "node:child_process";
import { request } from "undici";
import { CLI } from "./paths.mjs";

/**
 * The simulator in its own process (so that it never competes with the measured code for the
 * event loop), driven through its /_sim/* control endpoints (src/sim/control.ts).
 */
export async function startSim({ calls, latencyMs, seed = 1, days = 90, outputBytes = 0, now, apiTokens }) {
  const child = spawn(
    process.execPath,
    [
      CLI,
      "sim",
      "--port",
      "0",
      "--seed",
      String(seed),
      "--calls",
      String(calls),
      "--days",
      String(days),
      "--users",
      "1",
      "--latency-ms",
      String(latencyMs),
      ...(outputBytes > 0 ? ["--output-bytes", String(outputBytes)] : []),
      ...(now === undefined ? [] : ["--now", now]),
      ...(apiTokens === undefined ? [] : ["--api-tokens", String(apiTokens)]),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const { url, token } = await new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => reject(new Error(`simulator did not start in 60 s:\n${text}`)), 60_000);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => {
      text += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
      const token = /user 0: id \S+\s+token (\S+)/.exec(text)?.[1];
      if (url && token) {
        clearTimeout(timer);
        resolve({ url, token });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`simulator exited with ${code} before it listened:\n${text}`));
    });
  });
  child.stdout.resume();

  async function control(method, path, body) {
    const response = await request(`${url}${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: body === undefined ? {} : { "content-type": "application/json" },
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`${method} ${path}: ${response.statusCode} ${text}`);
    return JSON.parse(text);
  }

  return {
    url,
    token,
    pid: child.pid,
    /** List requests served so far (control requests are not counted by the simulator). */
    listRequests: async () => (await control("GET", "/_sim/stats")).byPath["/user/api-calls"] ?? 0,
    /** Requests served so far by route (list, one call, one operation). */
    requestsByRoute: async () => (await control("GET", "/_sim/stats")).byPath,
    advanceClock: (ms) => control("POST", "/_sim/clock", { advance_ms: ms }),
    now: async () => (await control("GET", "/_sim/clock")).now,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
