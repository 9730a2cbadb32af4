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
/** The rules file of the recipe that chains `zoo-usage check` after the export. */
const RULES_FILE = "/etc/zoo-usage/check.conf";
/** What the chained check says when the export never made a database (a run refused at start-up). */
const NO_DATABASE = ["error: No zoo-usage database at", "  hint:", "  code: config.invalid"];

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
  expect(recipes.filter((recipe) => recipe.command.includes("zoo-usage check"))).not.toEqual([]);
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
    // History up to the machine's clock, which the chained check judges by.
    sim = await startSimulator({ seed: 28, calls: 300, days: 5, users: 1, now: new Date() });
  });
  afterAll(() => sim.close());

  /**
   * A fresh work directory with the seeded export.jsonl, the token file, a rules file (a stale rule
   * that a run completed just now never fires, unless `rules` says otherwise) and a `zoo-usage` on PATH.
   */
  async function cronHome(token: string, rules = "stale hours=26\n") {
    const workspace = await tempWorkspace();
    const bin = path.join(workspace.dir, "bin");
    await mkdir(bin);
    const shim = path.join(bin, "zoo-usage");
    await writeFile(shim, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    await chmod(shim, 0o755);
    await writeFile(path.join(workspace.dir, "token"), `${token}\n`);
    await writeFile(path.join(workspace.dir, "export.jsonl"), `${OLD_LINE}\n`);
    await writeFile(path.join(workspace.dir, "check.conf"), rules);
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
      .replace(TOKEN_FILE, `'${path.join(home.dir, "token")}'`)
      .replace(RULES_FILE, `'${path.join(home.dir, "check.conf")}'`);
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

  /** The mail's lines, and those the chained check added after the export's (none without a check). */
  function exportMail(recipe: Recipe, mail: string): string[] {
    const all = mail.trimEnd().split("\n");
    if (!recipe.command.includes("zoo-usage check")) return all;
    const exportPart = all.slice(0, all.length - NO_DATABASE.length);
    all.slice(exportPart.length).forEach((line, i) => {
      expect(line.startsWith(NO_DATABASE[i] ?? "")).toBe(true);
    });
    return exportPart;
  }

  const lines = async (dir: string) =>
    (await readFile(path.join(dir, "export.jsonl"), "utf8")).trimEnd().split("\n");

  describe.each(recipes.filter((recipe) => recipe.command.includes("zoo-usage check")))(
    "the cron recipe of $where, with the check chained, run by dash",
    (recipe) => {
      test("a run that succeeds and an alert fires: the mail is the check's alert only", async () => {
        // A budget of one micro-dollar: the month's spend passes 80% of it.
        const home = await cronHome(sim.users[0]?.token ?? "", "budget usd=0.000001 actual=80\n");
        try {
          const { status, mail } = await runRecipe(recipe, home, { ZOO_HOST: sim.url });
          expect(status).toBe(1);
          const mailed = mail.trimEnd().split("\n");
          expect(mailed.length).toBeGreaterThan(0);
          expect(mailed.every((line) => line.includes("budget"))).toBe(true);
          expect(mail).not.toContain("zoo-usage export: exit");
        } finally {
          await home.cleanup();
        }
      });
    },
  );

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
        const [first, line, ...more] = exportMail(recipe, mail);
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
        expect(exportMail(recipe, mail)).toEqual([
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
