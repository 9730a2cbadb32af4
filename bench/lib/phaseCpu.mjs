import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** Files whose frames only run during the operations phase: the first and last such sample bound it. */
const PHASE_FILES = [
  "/extract/fetchOperationBodies.js",
  "/sources/operations/operationsSource.js",
  "/transform/operationRow.js",
];

/**
 * Main-thread CPU of the operations phase, from the V8 profile (`node --cpu-prof`) of one export:
 * the samples between the first and the last one with a frame of the phase's own files, less those
 * where the thread was idle (waiting on sockets or DuckDB). Garbage collection and V8's own work
 * count as CPU. Returns microseconds, and the window's wall time for reference.
 */
export async function operationsPhaseCpu(profileDir) {
  const files = (await readdir(profileDir)).filter((name) => name.endsWith(".cpuprofile"));
  if (files.length !== 1) throw new Error(`expected one .cpuprofile in ${profileDir}, found ${files.length}`);
  const profile = JSON.parse(await readFile(path.join(profileDir, files[0]), "utf8"));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inPhase = new Map();
  const isPhase = (id) => {
    if (inPhase.has(id)) return inPhase.get(id);
    const url = byId.get(id).callFrame.url;
    const up = parent.get(id);
    const result = PHASE_FILES.some((file) => url.endsWith(file)) || (up !== undefined && isPhase(up));
    inPhase.set(id, result);
    return result;
  };
  const { samples, timeDeltas } = profile;
  let first = -1;
  let last = -1;
  for (let i = 0; i < samples.length; i++) {
    if (isPhase(samples[i])) {
      if (first === -1) first = i;
      last = i;
    }
  }
  if (first === -1) return { cpuUs: 0, windowUs: 0 };
  let cpuUs = 0;
  let windowUs = 0;
  // A sample's delta is the time since the previous one: sample i stands for (t[i-1], t[i]].
  for (let i = first; i <= last; i++) {
    const delta = timeDeltas[i] ?? 0;
    windowUs += delta;
    if (byId.get(samples[i]).callFrame.functionName !== "(idle)") cpuUs += delta;
  }
  return { cpuUs, windowUs };
}
