/**
 * CPU per operation body of the validation and transform alone (transformOperation: the schema,
 * the storable checks, the row), for this build and, with --baseline DIR (a copy of dist/ from an
 * earlier commit), for that one, alternating in one process on the same bodies: the simulator's
 * operations of every type, as the export receives them (parsed JSON, outputs included).
 * usage: node bench/operationTransform.mjs [--calls 20000] [--rounds 5] [--baseline DIR]
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ROOT } from "./lib/paths.mjs";

const { values } = parseArgs({
  options: {
    calls: { type: "string", default: "20000" },
    rounds: { type: "string", default: "5" },
    baseline: { type: "string" },
  },
});
const load = (dist) => import(pathToFileURL(path.join(dist, "transform", "operationRow.js")).href);
const builds = [{ label: "current", module: await load(path.join(ROOT, "dist")) }];
if (values.baseline !== undefined) {
  builds.push({ label: "baseline", module: await load(path.resolve(values.baseline)) });
}
const { startSimulator } = await import(pathToFileURL(path.join(ROOT, "dist", "sim", "index.js")).href);
const sim = await startSimulator({ seed: 1, calls: Number(values.calls), days: 90, users: 1 });
const headers = { authorization: `Bearer ${sim.users[0].token}` };
const bodies = [];
try {
  let token = null;
  do {
    const url = new URL("/user/api-calls", sim.url);
    url.searchParams.set("limit", "10000");
    if (token !== null) url.searchParams.set("page_token", token);
    const page = await (await fetch(url, { headers })).json();
    for (const call of page.items.filter((item) => item.method === "POST")) {
      const response = await fetch(new URL(`/async/operations/${call.id}`, sim.url), { headers });
      if (response.status === 200) bodies.push({ id: call.id, text: await response.text() });
      else await response.arrayBuffer();
    }
    token = page.next_page ?? null;
  } while (token !== null);
} finally {
  await sim.close();
}
const parsed = bodies.map(({ id, text }) => ({ id, body: JSON.parse(text) }));
const fetchedAt = "2026-11-26T00:00:00.000Z";
const results = Object.fromEntries(builds.map(({ label }) => [label, []]));
for (let round = 0; round < Number(values.rounds); round++) {
  for (const { label, module } of round % 2 === 0 ? builds : [...builds].reverse()) {
    let accepted = 0;
    const before = process.cpuUsage();
    for (const { id, body } of parsed) if (module.transformOperation(id, body, fetchedAt).ok) accepted += 1;
    const used = process.cpuUsage(before);
    results[label].push((used.user + used.system) / parsed.length);
    if (accepted !== parsed.length) throw new Error(`${label}: ${parsed.length - accepted} bodies rejected`);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = { bodies: parsed.length };
for (const { label } of builds) summary[`${label}UsPerBody`] = Number(median(results[label]).toFixed(1));
console.log(JSON.stringify(summary));
