/**
 * Loaded into an export with `node --import` by bench/operationsVsCeiling.mjs: measures the main
 * thread's CPU over the operations requests (undici's diagnostics channels, which both the export's
 * undici and Node's fetch publish) and prints it at exit on stderr:
 * `BENCH_OPERATIONS_CPU <main thread microseconds> <requests> <all threads microseconds>` (all
 * threads: DuckDB's commits and candidate reads, libuv's pool, V8's helpers, process.cpuUsage). The clock is read at the first request and then
 * at most every READ_EVERY_MS as responses end (reading it costs a file read), so the figure covers
 * the requests answered up to the last reading, and leaves out the few answered after it.
 */
import { subscribe } from "node:diagnostics_channel";
import { mainThreadCpuUs } from "./mainThreadCpu.mjs";

const READ_EVERY_MS = 50;
const operations = new WeakSet();
let first;
let last;
let firstProcess;
let lastProcess;
let answered = 0;
let answeredAtLast = 0;
let lastReadAt = 0;
subscribe("undici:request:create", ({ request }) => {
  if (!request.path.includes("/async/operations/")) return;
  operations.add(request);
  if (first === undefined) {
    first = mainThreadCpuUs();
    firstProcess = process.cpuUsage();
    lastReadAt = performance.now();
  }
});
subscribe("undici:request:trailers", ({ request }) => {
  if (!operations.has(request)) return;
  answered += 1;
  const now = performance.now();
  if (now - lastReadAt < READ_EVERY_MS) return;
  lastReadAt = now;
  last = mainThreadCpuUs();
  lastProcess = process.cpuUsage(firstProcess);
  answeredAtLast = answered;
});
process.on("exit", () => {
  if (first !== undefined && last !== undefined) {
    const all = lastProcess.user + lastProcess.system;
    process.stderr.write(`BENCH_OPERATIONS_CPU ${last - first} ${answeredAtLast} ${all}\n`);
  }
});
