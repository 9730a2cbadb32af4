import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";

/**
 * The README is the front page and stays short enough to be read: what zoo-usage is, the quick
 * start, and an index of docs/, one topic a page, each page short enough to be read too. Every
 * relative link of the README and of the pages resolves, to a file and, with a `#fragment`, to a
 * heading of that page.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const README_MAX_LINES = 250;
const PAGE_MAX_LINES = 600;

const DOCS = readdirSync(path.join(ROOT, "docs"))
  .filter((name) => name.endsWith(".md"))
  .map((name) => `docs/${name}`)
  .sort();
const PAGES = ["README.md", ...DOCS];

/** The text outside fenced code blocks and inline code spans, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The targets of the inline links and images of a page: `[text](target)`, `![alt](target)`. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (match) => match[1] ?? "",
  );
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a page's headings, outside code blocks (a `# comment` in a block is no heading). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, text] of markdown
    .replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "")
    .matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const base = slug(text ?? "");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/**
 * What is wrong with the links of `markdown`, the text of the page at `page` (relative to `root`):
 * each relative link to a missing file, or to a heading its page does not have.
 */
function brokenLinks(markdown: string, page: string, root: string): string[] {
  const problems: string[] = [];
  for (const target of linkTargets(markdown)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not a file of the checkout
    const [file = "", fragment] = target.split("#", 2);
    const resolved =
      file === "" ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
    const full = path.join(root, resolved);
    if (resolved.startsWith("../") || !existsSync(full)) {
      problems.push(`${page}: ${target} (no file ${resolved})`);
      continue;
    }
    if (fragment !== undefined && resolved.endsWith(".md")) {
      const text = resolved === page ? markdown : readFileSync(full, "utf8");
      if (!anchors(text).has(fragment)) problems.push(`${page}: ${target} (no heading #${fragment})`);
    }
  }
  return problems;
}

const read = (page: string): string => readFileSync(path.join(ROOT, page), "utf8");

describe("README and docs/", () => {
  test(`README.md is at most ${README_MAX_LINES} lines`, () => {
    const lines = read("README.md").split("\n").length - 1;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  test.each(DOCS)(`%s is at most ${PAGE_MAX_LINES} lines`, (page) => {
    const lines = read(page).split("\n").length - 1;
    expect(lines).toBeLessThanOrEqual(PAGE_MAX_LINES);
  });

  test.each(PAGES)("every relative link of %s resolves", (page) => {
    expect(brokenLinks(read(page), page, ROOT)).toEqual([]);
  });

  test.each(DOCS)("%s opens with its title, a one-line summary and a link back to the README", (page) => {
    const [title, blank, summary, ...rest] = read(page).split("\n");
    expect(title).toMatch(/^# \S/);
    expect(blank).toBe("");
    expect(summary).toMatch(/^[^#\s].*\S$/);
    expect(rest.slice(0, 3).join("\n")).toContain("](../README.md)");
  });

  test("the README's index links every page of docs/", () => {
    const linked = new Set(linkTargets(read("README.md")).map((target) => target.split("#")[0]));
    expect(DOCS.filter((page) => !linked.has(page))).toEqual([]);
  });
});

describe("the link check itself", () => {
  const page = "docs/install.md";
  test.each([
    ["[gone](missing.md)", "docs/install.md: missing.md (no file docs/missing.md)"],
    [
      "[up](../README.md#no-such-heading)",
      "docs/install.md: ../README.md#no-such-heading (no heading #no-such-heading)",
    ],
    ["![shot](report.jpg)", "docs/install.md: report.jpg (no file docs/report.jpg)"],
    ["[out](../../outside.md)", "docs/install.md: ../../outside.md (no file ../outside.md)"],
    ["[here](#nowhere)", "docs/install.md: #nowhere (no heading #nowhere)"],
  ])("flags %s", (markdown, problem) => {
    expect(brokenLinks(`# Install\n\n${markdown}\n`, page, ROOT)).toEqual([problem]);
  });

  test.each([
    "[back](../README.md#exit-codes)",
    "[scope](export.md#scope-the-tokens-calls-or-the-whole-org)",
    "![report](report.png)",
    "[site](https://zoo.dev/docs/api) and <https://api.zoo.dev>",
    "`[not a link](missing.md)` in code",
    "```\n[not a link](missing.md)\n```",
    "[this page](#install)",
  ])("passes %s", (markdown) => {
    expect(brokenLinks(`# Install\n\n${markdown}\n`, page, ROOT)).toEqual([]);
  });
});
