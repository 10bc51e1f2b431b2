// /plugin in the app: the real CLI in a pseudo-terminal. A plugin installed from a real git
// marketplace shows as on, with what the marketplace offers beside it; Enter turns it off in the
// user's settings.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, runCli, tempProject } from "../../support/cli.ts";
import { marketplaceRepo, put } from "../../plugins/support.ts";
import { idle, KEY, ptyFixtures } from "./harness.ts";

const fixtures = ptyFixtures();

test("/plugin lists the installed plugin as on and the marketplace's other one as not installed; Enter turns it off in the user's settings", async () => {
  const fake = await fixtures.api({ turns: [] });
  const env = isolatedEnv(fake.url);
  const root = tempProject("khaelor-market-");
  const { work } = marketplaceRepo(root);
  put(work, ".claude-plugin/marketplace.json", JSON.stringify({ name: "team", owner: { name: "T" }, plugins: [{ name: "demo", source: "./plugins/demo" }, { name: "other", source: "./plugins/other", description: "another one" }] }));
  const dir = tempProject();
  for (const args of [["plugin", "marketplace", "add", work], ["plugin", "install", "demo@team"]]) expect((await runCli(args, { cwd: dir, env })).code).toBe(0);

  const s = fixtures.pty([], { cwd: dir, env });
  await s.waitFor(idle, "the composer");
  s.type("/plugin");
  await s.waitForText("› /plugin");
  s.send(KEY.enter);
  await s.waitForText("Plugins (Enter turns");
  expect(s.screen()).toMatch(/demo@team\s+1\.0\.0 · on · the demo plugin/);
  expect(s.screen()).toMatch(/other@team\s+not installed · another one/);
  s.send(KEY.enter);
  await s.waitForText("demo@team turned off in");
  const settings = join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json");
  expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual({ enabledPlugins: { "demo@team": false } });
});
