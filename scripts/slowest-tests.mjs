#!/usr/bin/env node
// The 10 slowest test files of a vitest run, from its JSON report: where `npm test`'s time goes.
//   npm run test:slowest [-- PATH [COUNT]]
// PATH defaults to test-artifacts/vitest-results.json, which vitest writes when CI is set.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const DEFAULT_REPORT = "test-artifacts/vitest-results.json";
const HOW_TO =
  "Produce the report with a run that writes it, for example:\n" +
  "  npm run build && CI=true npx vitest run              (every test; writes test-artifacts/vitest-results.json)\n" +
  "  npx vitest run --reporter=json --outputFile=r.json test/export   (some files, then: npm run test:slowest -- r.json)";

const [reportArg, countArg] = process.argv.slice(2);
if (reportArg === "--help" || reportArg === "-h") {
  console.log(`usage: npm run test:slowest [-- PATH [COUNT]]   (PATH: ${DEFAULT_REPORT})\n${HOW_TO}`);
  process.exit(0);
}
const report = reportArg ?? DEFAULT_REPORT;
const count = Number(countArg ?? 10);
if (!Number.isInteger(count) || count < 1) {
  console.error(`slowest-tests: COUNT must be a whole number above 0, got ${JSON.stringify(countArg)}`);
  process.exit(2);
}
if (!existsSync(report)) {
  console.error(`slowest-tests: no vitest JSON report at ${report}.\n${HOW_TO}`);
  process.exit(2);
}

let results;
try {
  results = JSON.parse(readFileSync(report, "utf8"));
} catch (error) {
  console.error(`slowest-tests: ${report} is not JSON: ${error.message}\n${HOW_TO}`);
  process.exit(2);
}
if (!Array.isArray(results?.testResults)) {
  console.error(`slowest-tests: ${report} is not a vitest JSON report (no testResults).\n${HOW_TO}`);
  process.exit(2);
}

/** A file's path from the checkout it ran in (test/...), whichever checkout wrote the report. */
function shortName(file) {
  const relative = path.relative(process.cwd(), file);
  if (!relative.startsWith("..")) return relative;
  const at = file.lastIndexOf(`${path.sep}test${path.sep}`);
  return at < 0 ? file : file.slice(at + 1);
}

const files = results.testResults.map((file) => ({
  name: shortName(file.name),
  seconds: (file.endTime - file.startTime) / 1000,
  tests: file.assertionResults.length,
  slowest: [...file.assertionResults].sort((a, b) => (b.duration ?? 0) - (a.duration ?? 0))[0],
}));
files.sort((a, b) => b.seconds - a.seconds);
const total = files.reduce((sum, file) => sum + file.seconds, 0);
console.log(`${files.length} test files, ${total.toFixed(1)} s in all (summed over the workers), ${report}`);
console.log("seconds  tests  file (its slowest test)");
for (const file of files.slice(0, count)) {
  const slowest = file.slowest
    ? ` (${((file.slowest.duration ?? 0) / 1000).toFixed(1)} s: ${file.slowest.title})`
    : "";
  console.log(
    `${file.seconds.toFixed(1).padStart(7)}  ${String(file.tests).padStart(5)}  ${file.name}${slowest}`,
  );
}
console.log(`\n${HOW_TO}`);
