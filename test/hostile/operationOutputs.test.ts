import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { nameProblem } from "../../src/operations/saveOutputs.js";
import { createDataset } from "../../src/sim/index.js";
import { runCli } from "../helpers/cli.js";
import { errorBody, type HostileApi, sendJson, startHostileApi } from "../helpers/hostileApi.js";

/** A completed file conversion as the simulator makes it: a body every schema accepts. */
function conversionBody(): Record<string, unknown> {
  const options = { seed: 7, calls: 2000, days: 10, users: 1 };
  const dataset = createDataset(options);
  const now = new Date(Date.UTC(2026, 10, 1));
  for (let i = dataset.countCreated(now) - 1; i >= 0; i--) {
    const operation = dataset.operationFor(dataset.callAt(i, now).id, now);
    if (operation?.type === "file_conversion" && operation.status === "completed") return operation;
  }
  throw new Error("the simulated history has no completed conversion");
}

const ASKED = "5e1f0c2a-3b4d-4e6f-8a9b-0c1d2e3f4a5b";
const b64 = (text: string) => Buffer.from(text).toString("base64");

let api: HostileApi;
/** What the stand-in answers for GET /async/operations/{id}: set by each test. */
let body: Record<string, unknown>;
const env = () => ({ ZOO_API_TOKEN: "hostile-token-operation-outputs", ZOO_HOST: api.url });
beforeAll(async () => {
  api = await startHostileApi((request, res) => {
    if (request.path === `/async/operations/${ASKED}`) sendJson(res, 200, body);
    else sendJson(res, 404, errorBody(404, "not found"));
  });
});
afterAll(() => api.close());

let parent: string;
let folder: string;
let outside: string;
beforeEach(async () => {
  parent = await mkdtemp(path.join(os.tmpdir(), "zoo-usage-outputs-"));
  folder = path.join(parent, "outputs");
  outside = path.join(parent, "outside");
  await mkdir(folder);
  await mkdir(outside);
});
afterEach(() => rm(parent, { recursive: true, force: true }));

describe("--save-outputs with hostile output names", () => {
  test("names that leave the folder or go through a symlink are refused; the others are saved", async () => {
    // A symlink already inside the folder, to a folder and to a file outside it.
    await symlink(outside, path.join(folder, "link"));
    await writeFile(path.join(outside, "victim.txt"), "precious");
    await symlink(path.join(outside, "victim.txt"), path.join(folder, "victim.txt"));
    body = {
      ...conversionBody(),
      id: ASKED,
      outputs: {
        "part.step": b64("STEP data"),
        "parts/bracket.obj": b64("OBJ data"),
        ".": b64("dot"),
        "": b64("empty"),
        "..": b64("dot dot"),
        "../escape.txt": b64("escaped"),
        "/tmp/absolute.txt": b64("absolute"),
        "a/../../escape.txt": b64("escaped"),
        "link/through.txt": b64("through a symlink"),
        "victim.txt": b64("overwritten through a symlink"),
        "back\\slash.txt": b64("backslash"),
        "nul\u0000.txt": b64("nul"),
      },
    };
    const result = await runCli(["operation", "get", ASKED, "--save-outputs", folder], { env: env() });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain("code: api.invalid_response");
    expect(result.stderr).toMatch(/Refused to save 10 output file\(s\)/);
    for (const name of ['"."', '""', '".."', '"../escape.txt"', '"link/through.txt"', '"victim.txt"']) {
      expect(result.stderr).toContain(name);
    }
    expect(result.stderr).toMatch(/link is a symlink/);
    // The good ones are there, byte for byte.
    expect(await readFile(path.join(folder, "part.step"), "utf8")).toBe("STEP data");
    expect(await readFile(path.join(folder, "parts", "bracket.obj"), "utf8")).toBe("OBJ data");
    // Nothing was written outside the folder, nor through its links.
    expect((await readdir(parent)).sort()).toEqual(["outputs", "outside"]);
    expect(await readdir(outside)).toEqual(["victim.txt"]);
    expect(await readFile(path.join(outside, "victim.txt"), "utf8")).toBe("precious");
    expect((await readdir(folder)).sort()).toEqual(["link", "part.step", "parts", "victim.txt"]);
    await expect(readFile("/tmp/absolute.txt")).rejects.toThrow(/ENOENT/);
  });

  test("only valid names: all saved, exit 0, temporaries of a dead run removed", async () => {
    await writeFile(path.join(folder, ".part.step.999999999.0badf00d.partial"), "half");
    body = { ...conversionBody(), id: ASKED, outputs: { "part.step": b64("STEP"), "x/y/z.obj": b64("OBJ") } };
    const result = await runCli(["operation", "get", ASKED, "--save-outputs", folder], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(path.join(folder, "x", "y", "z.obj"), "utf8")).toBe("OBJ");
    expect((await readdir(folder)).sort()).toEqual(["part.step", "x"]);
  });
});

describe("a body for another operation than the one asked for", () => {
  test("is neither shown nor saved: exit 3 naming both ids", async () => {
    const other = "0f0f0f0f-1111-4222-8333-444455556666";
    body = { ...conversionBody(), id: other, outputs: { "part.step": b64("not yours") } };
    for (const json of [false, true]) {
      const result = await runCli(
        ["operation", "get", ASKED, "--save-outputs", folder, ...(json ? ["--json"] : [])],
        { env: env() },
      );
      expect(result.code, result.stderr).toBe(3);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(
        `Asked the API for operation ${ASKED} and it answered with operation "${other}"`,
      );
      expect(result.stderr).toContain("code: api.invalid_response");
    }
    expect(await readdir(folder)).toEqual([]);
  });

  test("the same id in upper case is the same operation", async () => {
    body = { ...conversionBody(), id: ASKED.toUpperCase(), outputs: {} };
    const result = await runCli(["operation", "get", ASKED, "--json"], { env: env() });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).id).toBe(ASKED.toUpperCase());
  });
});

test.each([
  ["part.step", undefined],
  ["parts/bracket.kcl", undefined],
  ["..hidden", undefined],
  ["", "the name is empty"],
  [".", 'the name has a "." path segment'],
  ["a/./b", 'the name has a "." path segment'],
  ["../x", 'the name has a ".." path segment'],
  ["a//b", "the name has an empty path segment"],
  ["dir/", "the name has an empty path segment"],
  ["/etc/passwd", "the name is an absolute path"],
  ["a\\b", "the name contains a backslash"],
  ["a\0b", "the name contains a NUL character"],
])("output name %j: %s", (name, problem) => {
  expect(nameProblem(name)).toBe(problem);
});
