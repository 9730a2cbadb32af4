import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";

const PAGE = readFileSync(path.resolve(import.meta.dirname, "../../docs/production.md"), "utf8");

test("the systemd recipe creates the user, the folder and the token file its service names", () => {
  const section = PAGE.split(/^## Nightly with a systemd timer$/m)[1]?.split(/^## /m)[0] ?? "";
  const service =
    /# \/etc\/systemd\/system\/zoo-usage-export\.service\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  const user = /^User=(\S+)$/m.exec(service)?.[1];
  const folder = /^WorkingDirectory=(\S+)$/m.exec(service)?.[1];
  const envFile = /^EnvironmentFile=(\S+)$/m.exec(service)?.[1];
  expect([user, folder, envFile]).toEqual(["zoo-usage", "/srv/zoo-usage", "/etc/zoo-usage/env"]);
  // The shell steps come before the unit files, in the same section.
  const setup = section.slice(0, section.indexOf("```ini"));
  expect(setup).toMatch(new RegExp(`^useradd --system .* ${user}$`, "m"));
  expect(setup).toMatch(new RegExp(`^install -d -o ${user} -g ${user} -m 0750 ${folder}$`, "m"));
  expect(setup).toMatch(new RegExp(`^install -m 0600 /dev/null ${envFile}\\b`, "m"));
});
