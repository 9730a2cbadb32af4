import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { REPO_ROOT, requireBuiltCli } from "../helpers/cli.js";

/**
 * docs/cli.md, the warehouse reference pages and the sources table of docs/how-a-run-works.md are
 * generated from the code (the commander program, the COMMENTs of a fresh warehouse, the sources
 * exportPlan() declares) by scripts/gen-docs.mjs: a flag, a column, a comment or a source that
 * changes without `npm run docs:gen` fails here, naming the pages and the command to run.
 */
const SCRIPT = path.join(REPO_ROOT, "scripts/gen-docs.mjs");
const GENERATED = [
  "cli.md",
  "warehouse-reference.md",
  "warehouse-reference-usage.md",
  "warehouse-reference-billing.md",
  "warehouse-reference-ledger.md",
];

function check(docs?: string): { status: number | null; stderr: string } {
  requireBuiltCli();
  const args = [SCRIPT, "--check", ...(docs === undefined ? [] : ["--docs", docs])];
  const result = spawnSync(process.execPath, args, { cwd: REPO_ROOT, encoding: "utf8", env: { TZ: "UTC" } });
  return { status: result.status, stderr: result.stderr };
}

const scratch = mkdtempSync(path.join(os.tmpdir(), "zoo-usage-docs-check-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the generated docs pages", () => {
  test("docs/ holds what `npm run docs:gen` writes (run it when this fails)", () => {
    const { status, stderr } = check();
    expect(stderr).toBe("");
    expect(status).toBe(0);
  });

  test("a page edited by hand or missing is named, with the command that rewrites it", () => {
    const docs = path.join(scratch, "docs");
    cpSync(path.join(REPO_ROOT, "docs"), docs, { recursive: true });
    const cli = path.join(docs, "cli.md");
    writeFileSync(cli, readFileSync(cli, "utf8").replace("| `--limit <n>` |", "| `--limit <count>` |"));
    unlinkSync(path.join(docs, "warehouse-reference-billing.md"));
    const { status, stderr } = check(docs);
    expect(status).toBe(1);
    expect(stderr).toContain("docs/cli.md, docs/warehouse-reference-billing.md differ");
    expect(stderr).toContain("run `npm run docs:gen`");
  });

  test("the sources table of how-a-run-works.md is the plan's: a row edited by hand is named", () => {
    const docs = path.join(scratch, "docs-sources");
    cpSync(path.join(REPO_ROOT, "docs"), docs, { recursive: true });
    const page = path.join(docs, "how-a-run-works.md");
    const text = readFileSync(page, "utf8");
    expect(text).toContain("| service accounts (org) | `GET /org/service-accounts` | `service_accounts` |");
    writeFileSync(page, text.replace("| snapshot: one row a run |", "| append |"));
    const { status, stderr } = check(docs);
    expect(status).toBe(1);
    expect(stderr).toContain("docs/how-a-run-works.md differs");
  });

  test.each(GENERATED)("docs/%s names every command or object it documents", (page) => {
    const text = readFileSync(path.join(REPO_ROOT, "docs", page), "utf8");
    const sections = text.match(/^##+ `/gm) ?? [];
    expect(sections.length).toBeGreaterThan(5);
  });
});
