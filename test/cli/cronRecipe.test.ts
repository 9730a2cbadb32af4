import { spawn, spawnSync } from "node:child_process";
import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type RunningSimulator, startSimulator } from "../../src/sim/index.js";
import { CLI, REPO_ROOT, requireBuiltCli } from "../helpers/cli.js";
import { tempWorkspace } from "../helpers/exportHarness.js";

/**
 * The documented cron recipe, run as cron runs it: every ```cron block of README.md and docs/*.md
 * that runs `zoo-usage export` has its command line run by `dash -c` (Debian's and Ubuntu's
 * /bin/sh). What the line prints is what cron mails: nothing on success; on failure the exit code
 * and this run's JSON line, or a line saying the run printed none, never the previous night's line
 * (export.jsonl starts with an old line of another exit code and error).
 */
const OLD_LINE =
  '{"status":"failed","exit_code":3,"error":{"code":"api.unauthorized","message":"an old night"}}';
/** The paths the recipe names, replaced by the test's own. */
const WORK_DIR = "/srv/zoo-usage";
const TOKEN_FILE = "/etc/zoo-usage/token";

interface Recipe {
  where: string;
  env: string[];
  command: string;
}

/** Every cron block that runs an export, with its variable lines and its command (minus the schedule). */
async function documentedRecipes(): Promise<Recipe[]> {
  const pages = [
    "README.md",
    ...(await readdir(path.join(REPO_ROOT, "docs")))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name}`),
  ];
  const recipes: Recipe[] = [];
  for (const page of pages) {
    const text = await readFile(path.join(REPO_ROOT, page), "utf8");
    for (const [, block] of text.matchAll(/^```cron\n([\s\S]*?)^```$/gm)) {
      if (block === undefined || !block.includes("zoo-usage export")) continue;
      const lines = block.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("#"));
      const env = lines.filter((line) => /^[A-Z_]+=/.test(line));
      for (const line of lines.filter((line) => !/^[A-Z_]+=/.test(line))) {
        const command = /^(?:\S+\s+){5}(.*)$/.exec(line)?.[1];
        if (command?.includes("zoo-usage export")) recipes.push({ where: page, env, command });
      }
    }
  }
  return recipes;
}

const dash = spawnSync("sh", ["-c", "command -v dash"], { encoding: "utf8" }).stdout.trim();
const recipes = await documentedRecipes();

test("the README and the docs hold the recipe, with CRON_TZ and PATH, in one line without %", () => {
  expect(recipes.map((recipe) => recipe.where)).toContain("README.md");
  for (const recipe of recipes) {
    expect(recipe.env, recipe.where).toEqual(["CRON_TZ=UTC", "PATH=/usr/local/bin:/usr/bin:/bin"]);
    // In a crontab line, % starts the command's stdin: the line must have none.
    expect(recipe.command, recipe.where).not.toContain("%");
    expect(recipe.command, recipe.where).toContain(`cd ${WORK_DIR} `);
    expect(recipe.command, recipe.where).toContain(TOKEN_FILE);
  }
});

if (dash === "") {
  // Debian's /bin/sh: a CI machine without it cannot check the recipe, and says so.
  const reason = "dash is not installed (apt-get install dash): the cron recipe is not checked";
  if (process.env.CI === "true") {
    test("dash is installed", () => {
      throw new Error(reason);
    });
  } else {
    test.skip(reason, () => undefined);
    console.warn(`skipped: ${reason}`);
  }
} else {
  let sim: RunningSimulator;
  beforeAll(async () => {
    requireBuiltCli();
    sim = await startSimulator({ seed: 28, calls: 300, days: 5, users: 1 });
  });
  afterAll(() => sim.close());

  /** A fresh work directory with the seeded export.jsonl, the token file and a `zoo-usage` on PATH. */
  async function cronHome(token: string) {
    const workspace = await tempWorkspace();
    const bin = path.join(workspace.dir, "bin");
    await mkdir(bin);
    const shim = path.join(bin, "zoo-usage");
    await writeFile(shim, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    await chmod(shim, 0o755);
    await writeFile(path.join(workspace.dir, "token"), `${token}\n`);
    await writeFile(path.join(workspace.dir, "export.jsonl"), `${OLD_LINE}\n`);
    return { ...workspace, bin };
  }

  /** Runs the recipe's command with dash as cron would (its variables, no others): what it prints is the mail. */
  function runRecipe(
    recipe: Recipe,
    home: { dir: string; bin: string },
    env: Record<string, string>,
    edit: (command: string) => string = (command) => command,
  ): Promise<{ status: number | null; mail: string }> {
    const command = edit(recipe.command)
      .replace(`cd ${WORK_DIR} `, `cd '${home.dir}' `)
      .replace(TOKEN_FILE, `'${path.join(home.dir, "token")}'`);
    const cronPath = recipe.env.find((line) => line.startsWith("PATH="))?.slice("PATH=".length) ?? "";
    return new Promise((resolve, reject) => {
      const child = spawn(dash, ["-c", command], {
        env: { PATH: `${home.bin}:${cronPath}`, HOME: home.dir, TZ: "UTC", ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let mail = "";
      child.stdout.on("data", (chunk) => {
        mail += chunk;
      });
      child.stderr.on("data", (chunk) => {
        mail += chunk;
      });
      child.on("error", reject);
      child.on("close", (status) => resolve({ status, mail }));
    });
  }

  const lines = async (dir: string) =>
    (await readFile(path.join(dir, "export.jsonl"), "utf8")).trimEnd().split("\n");

  describe.each(recipes)("the cron recipe of $where, run by dash", (recipe) => {
    test("a run that succeeds: nothing mailed, its line appended", async () => {
      const home = await cronHome(sim.users[0]?.token ?? "");
      try {
        const { mail } = await runRecipe(recipe, home, { ZOO_HOST: sim.url });
        expect(mail).toBe("");
        const [old, line, ...more] = await lines(home.dir);
        expect(old).toBe(OLD_LINE);
        expect(more).toEqual([]);
        expect(JSON.parse(line ?? "")).toMatchObject({ status: "completed", exit_code: 0 });
      } finally {
        await home.cleanup();
      }
    });

    test("a run that fails with its line: the exit code and this run's line, not the old one", async () => {
      const home = await cronHome("t-cron-0123456789");
      try {
        // An insecure host: refused before the run starts, exit 2, its reason in the line.
        const { mail } = await runRecipe(recipe, home, { ZOO_HOST: "http://host.example:8080" });
        const [first, line, ...more] = mail.trimEnd().split("\n");
        expect(first).toBe("zoo-usage export: exit 2");
        expect(more).toEqual([]);
        expect(JSON.parse(line ?? "")).toMatchObject({
          status: "failed",
          exit_code: 2,
          error: { code: "config.insecure_transport" },
        });
        expect(mail).not.toContain("an old night");
        expect(mail).not.toContain("t-cron-0123456789");
        expect(await lines(home.dir)).toEqual([OLD_LINE, line]);
      } finally {
        await home.cleanup();
      }
    });

    test("a run that fails without a line: the exit code and a line saying so, never the old line", async () => {
      const home = await cronHome(sim.users[0]?.token ?? "");
      try {
        // A mistyped --json: the CLI refuses the flag and owes no JSON line.
        const { mail } = await runRecipe(recipe, home, { ZOO_HOST: sim.url }, (command) =>
          command.replace("--json", "--jsno"),
        );
        expect(mail.trimEnd().split("\n")).toEqual([
          "zoo-usage export: exit 2",
          "zoo-usage export printed no JSON line (see export.log)",
        ]);
        expect(await lines(home.dir)).toEqual([OLD_LINE]);
        // The reason is in the log, in two lines (the error and the hint), not the whole help.
        const log = (await readFile(path.join(home.dir, "export.log"), "utf8")).trimEnd().split("\n");
        expect(log).toHaveLength(2);
        expect(log[0]).toContain("unknown option '--jsno'");
      } finally {
        await home.cleanup();
      }
    });
  });
}
