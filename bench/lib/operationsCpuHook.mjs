/**
 * Loaded into an export with `node --import` by bench/operationsVsCeiling.mjs: measures the main
 * thread's CPU from the first GET /async/operations/{id} to the end of the last one's response
 * (undici's diagnostics channels, which both the export's undici and Node's fetch publish), and
 * prints it at exit on stderr: `BENCH_OPERATIONS_CPU <microseconds> <requests>`.
 */
import { subscribe } from "node:diagnostics_channel";
import { mainThreadCpuUs } from "./mainThreadCpu.mjs";

const operations = new WeakSet();
let first;
let last;
let requests = 0;
subscribe("undici:request:create", ({ request }) => {
  if (!request.path.includes("/async/operations/")) return;
  operations.add(request);
  first ??= mainThreadCpuUs();
});
subscribe("undici:request:trailers", ({ request }) => {
  if (!operations.has(request)) return;
  requests += 1;
  last = mainThreadCpuUs();
});
process.on("exit", () => {
  if (first !== undefined && last !== undefined) {
    process.stderr.write(`BENCH_OPERATIONS_CPU ${last - first} ${requests}\n`);
  }
});
