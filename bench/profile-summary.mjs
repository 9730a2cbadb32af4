/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`, e.g. `node bench/run.mjs --cpu-prof DIR`):
 * the functions with the most self time, and the time per source file.
 * usage: node bench/profile-summary.mjs FILE.cpuprofile [TOP=25]
 */
import { readFile } from "node:fs/promises";
import path from "node:path";

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: node bench/profile-summary.mjs FILE.cpuprofile [TOP]");
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(await readFile(file, "utf8"));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfUs = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0));
}
const totalUs = profile.endTime - profile.startTime;
const byFunction = new Map();
const byFile = new Map();
for (const [id, us] of selfUs) {
  const { callFrame } = byId.get(id);
  const where = callFrame.url ? `${shortUrl(callFrame.url)}:${callFrame.lineNumber + 1}` : "";
  const key = `${callFrame.functionName || "(anonymous)"} ${where}`.trim();
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  const fileKey = callFrame.url ? shortUrl(callFrame.url) : `(${callFrame.functionName || "native"})`;
  byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + us);
}
const ms = (us) => (us / 1000).toFixed(0).padStart(7);
const pct = (us) => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`;
console.log(`profile ${path.basename(file)}: ${(totalUs / 1e6).toFixed(2)} s sampled on the main thread\n`);
console.log("self time by function");
for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${ms(us)} ms ${pct(us)}  ${key}`);
}
console.log("\nself time by file");
for (const [key, us] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${ms(us)} ms ${pct(us)}  ${key}`);
}

function shortUrl(url) {
  const text = url.replace(/^file:\/\//, "");
  const at = text.lastIndexOf("node_modules/");
  if (at !== -1) return text.slice(at + "node_modules/".length);
  const dist = text.lastIndexOf("/dist/");
  return dist === -1 ? text : text.slice(dist + 1);
}
