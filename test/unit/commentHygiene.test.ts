import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, test } from "vitest";

/**
 * Comments describe the code as it is: an issue number or a file that is not in the repository
 * means nothing to a reader of the checkout (history and measurements belong in commit bodies and
 * bench/README.md). This scans every comment of src/ and sql/ for such references.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Files and folders (ending in "/") whose comments are still to be rewritten, skipped until then.
 * The list only ever shrinks: a path leaves it once its comments pass.
 */
const pendingSweep: readonly string[] = [];

interface Comment {
  line: number;
  text: string;
}

/**
 * Every comment of a TypeScript file: the trivia before each token (a comment ending the previous
 * token's line, then those on the lines after), so never the contents of a string.
 */
function typescriptComments(text: string): Comment[] {
  const source = ts.createSourceFile("file.ts", text, ts.ScriptTarget.Latest, true);
  const seen = new Set<number>();
  const comments: Comment[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    const children = node.getChildren(source);
    if (children.length > 0) {
      for (const child of children) visit(child);
      return;
    }
    const trivia = [
      ...(ts.getTrailingCommentRanges(text, node.pos) ?? []),
      ...(ts.getLeadingCommentRanges(text, node.pos) ?? []),
    ];
    for (const range of trivia) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const { line } = source.getLineAndCharacterOfPosition(range.pos);
      comments.push({ line: line + 1, text: text.slice(range.pos, range.end) });
    }
  };
  visit(source);
  visit(source.endOfFileToken);
  return comments;
}

/** Every comment of a SQL file: `-- ...` to the end of the line and `/* ... *\/`, outside quotes. */
function sqlComments(text: string): Comment[] {
  const comments: Comment[] = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === "\n") line += 1;
    if (char === "'" || char === '"') {
      const end = text.indexOf(char, i + 1);
      const stop = end === -1 ? text.length : end;
      line += (text.slice(i + 1, stop).match(/\n/g) ?? []).length;
      i = stop + 1;
      continue;
    }
    const close = text.startsWith("--", i) ? "\n" : text.startsWith("/*", i) ? "*/" : undefined;
    if (close !== undefined) {
      const end = text.indexOf(close, i + 2);
      const stop = end === -1 ? text.length : close === "*/" ? end + 2 : end;
      const body = text.slice(i, stop);
      comments.push({ line, text: body });
      line += (body.match(/\n/g) ?? []).length;
      i = stop;
      continue;
    }
    i += 1;
  }
  return comments;
}

/** Every file of the checkout but dependencies, build output and git's own, relative to ROOT. */
function repositoryFiles(): string[] {
  const skip = new Set(["node_modules", "dist", ".git", "test-artifacts"]);
  const files: string[] = [];
  const walk = (dir: string): void => {
    // A folder another test removes meanwhile (a temporary one) holds nothing to resolve.
    const entries = (() => {
      try {
        return readdirSync(path.join(ROOT, dir), { withFileTypes: true });
      } catch {
        return [];
      }
    })();
    for (const entry of entries) {
      if (skip.has(entry.name)) continue;
      const relative = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(relative);
      else files.push(relative);
    }
  };
  walk("");
  return files;
}

const FILES = repositoryFiles();
const BASENAMES = new Set(FILES.map((file) => path.basename(file)));

const ISSUE_NUMBER = /\bissues? #?\d+|(?<![&\w])#\d+\b/i;
/** A path up from the comment's folder (`../x`, `../../x/y`), checked like a file name. */
const PARENT_PATH = /(?<![\w./-])(?:\.\.\/)+[\w-]+(?:\/[\w-]+)*\/?(?![\w./-])/g;
/** A file name with an extension of this repository's files; with or without folders. */
const FILE_TOKEN = /[\w.-]*(?:\/[\w.-]+)*\.(?:ts|mts|js|mjs|cjs|sql|json|md|sh|ya?ml)\b/g;
/** Extensions a bare name (no folder) is checked for: `Node.js` is prose, `apiCallLoader.ts` a file. */
const BARE_NAME_EXTENSIONS = /\.(?:ts|mts|mjs|sql|md)$/;

/** Whether `token`, named in a comment of `file`, is a file of the checkout. */
function fileExists(token: string, file: string): boolean {
  if (!token.includes("/")) return !BARE_NAME_EXTENSIONS.test(token) || BASENAMES.has(token);
  // From the root, from the comment's folder, or from src/ ("load/database.ts").
  const candidates = [token, path.posix.join(path.posix.dirname(file), token), `src/${token}`];
  // Built paths and import specifiers name the TypeScript source as .js.
  for (const candidate of [...candidates]) {
    const source = candidate.replace(/^dist\//, "src/").replace(/\.js$/, ".ts");
    candidates.push(source);
  }
  return candidates.some((candidate) => existsSync(path.join(ROOT, path.posix.normalize(candidate))));
}

/** What is wrong with one comment of `file`: each reference that points outside the checkout. */
function findings(comment: string, file: string): string[] {
  const found: string[] = [];
  const issue = comment.match(ISSUE_NUMBER);
  if (issue !== null) found.push(`an issue number ("${issue[0]}")`);
  for (const match of comment.matchAll(PARENT_PATH)) {
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[0]));
    if (resolved.startsWith("../") || !existsSync(path.join(ROOT, resolved))) {
      found.push(`a folder that is not in the repository (${match[0]})`);
    }
  }
  for (const match of comment.matchAll(FILE_TOKEN)) {
    let start = match.index ?? 0;
    while (start > 0 && !/[\s`("']/.test(comment[start - 1] ?? "")) start -= 1;
    const word = comment.slice(start, (match.index ?? 0) + match[0].length);
    // Part of a URL, a glob or a placeholder, not a path of this checkout.
    if (/:\/\/|[*<>]/.test(word)) continue;
    if (!fileExists(match[0], file)) found.push(`a file that is not in the repository (${match[0]})`);
  }
  return found;
}

function commentsOf(file: string): Comment[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return file.endsWith(".sql") ? sqlComments(text) : typescriptComments(text);
}

const pending = (file: string) =>
  pendingSweep.some((entry) => (entry.endsWith("/") ? file.startsWith(entry) : file === entry));

const SCANNED = FILES.filter(
  (file) =>
    (file.startsWith("src/") && file.endsWith(".ts")) || (file.startsWith("sql/") && file.endsWith(".sql")),
);

describe("comments reference only what is in the repository", () => {
  test.each(SCANNED.filter((file) => !pending(file)))("%s", (file) => {
    const problems = commentsOf(file).flatMap((comment) =>
      comment.text
        .split("\n")
        .flatMap((text, offset) =>
          findings(text, file).map((problem) => `${file}:${comment.line + offset}: ${problem}`),
        ),
    );
    expect(problems).toEqual([]);
  });

  test("every path waiting for its sweep exists", () => {
    const missing = pendingSweep.filter((entry) => !existsSync(path.join(ROOT, entry)));
    expect(missing).toEqual([]);
  });
});

describe("the reference check itself", () => {
  const file = "src/load/database.ts";

  test.each([
    ["// peak RSS fell (bench, issue 5)", 'an issue number ("issue 5")'],
    ["/** Fixed in #12. */", 'an issue number ("#12")'],
    ["// see the notes in ../../../notes/", "a folder that is not in the repository (../../../notes/)"],
    ["// as ../plans says", "a folder that is not in the repository (../plans)"],
    [
      "// see ../../notes/house-style.md",
      "a file that is not in the repository (../../notes/house-style.md)",
    ],
    ["// the DuckDB traps (duckdb-notes.md)", "a file that is not in the repository (duckdb-notes.md)"],
    ["// as bench/missing.mjs measures", "a file that is not in the repository (bench/missing.mjs)"],
    ["// the loader (src/load/gone.ts)", "a file that is not in the repository (src/load/gone.ts)"],
  ])("flags %s", (comment, problem) => {
    expect(findings(comment, file)).toEqual([problem]);
  });

  test.each([
    "// the shape is checked (warehouseShape.ts), then the views applied (sql/views/cost.sql)",
    "// raised and retried (./outOfMemory.ts, ../errors.ts), as in src/cli/main.js once built",
    "// fetched by ../extract, which imports nothing of ../load/",
    "// spec/zoo-openapi.json, package.json and bench/README.md",
    "// https://github.com/duckdb/duckdb/blob/main/src/main.ts and *.parquet files",
    "// zod's issues keep their paths; Node.js reads it; a colour like #1f2933 or &#39;",
    "// `.<name>.<pid>.<random>.tmp`, `zoo-usage/<version>.json`",
  ])("passes %s", (comment) => {
    expect(findings(comment, file)).toEqual([]);
  });

  test("finds comments and only comments, in both languages", () => {
    const typescript =
      'const url = "https://x.dev/a.md"; // one\n/** two\n * lines */\nf(`/* no */`, 1 /* three */);\n';
    expect(typescriptComments(typescript).map((comment) => comment.line)).toEqual([1, 2, 4]);
    const sql = "SELECT '-- no', \"/* no */\" -- one\nFROM t /* two\n */ WHERE 1;\n-- three\n";
    expect(sqlComments(sql)).toEqual([
      { line: 1, text: "-- one" },
      { line: 2, text: "/* two\n */" },
      { line: 4, text: "-- three" },
    ]);
  });
});
