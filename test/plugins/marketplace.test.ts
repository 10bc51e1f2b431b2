// Marketplaces and installs through the real CLI: a real git repository (a local bare repository,
// by path and by file://; no network) holding .claude-plugin/marketplace.json, the plugin installed
// from it into the data directory and enabled in the user's settings, then loaded by a session
// against the fake Messages API; update moves to the new commit, a pinned one stays.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { git, marketplaceRepo, put, served } from "./support.ts";

const serve = fakeApiFixture();

describe("khaelor plugin", () => {
  test("marketplace add (file://), install, list, a session sees it; disable and enable; uninstall", async () => {
    const root = tempProject("khaelor-market-");
    const { bare } = marketplaceRepo(root);
    const server = await serve({ turns: [{ content: [{ type: "text", text: "one" }] }, { content: [{ type: "text", text: "two" }] }, { content: [{ type: "text", text: "three" }] }] });
    const env = isolatedEnv(server.url);
    const dir = tempProject();
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });

    const added = await cli("plugin", "marketplace", "add", `file://${bare}`);
    expect(added.stderr).toBe("");
    expect(added.stdout).toMatch(/^added the marketplace team at [0-9a-f]{12}: 1 plugin/);
    const installed = await cli("plugin", "install", "demo@team");
    expect(installed.code).toBe(0);
    const home = join(env.KHAELOR_HOME!, "plugins", "cache", "team", "demo");
    expect(installed.stdout).toContain(`installed demo@team 1.0.0 in ${home}; enabled in ${join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json")}`);
    expect(JSON.parse(readFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), "utf8"))).toEqual({ enabledPlugins: { "demo@team": true } });
    expect((await cli("plugin", "list")).stdout).toBe("on   demo@team 1.0.0  the demo plugin\n");

    // The user installed it: its hook runs and its command is there, no trust question.
    const run = await cli("-p", "/demo:hello carol");
    expect(run.code).toBe(0);
    expect(JSON.stringify(served(server)[0]!.messages[0]!.content)).toContain("Say hello to carol from PLUGIN-MARK");
    expect(readFileSync(join(dir, "hook-ran.txt"), "utf8").trim()).toBe(home);

    expect((await cli("plugin", "disable", "demo@team")).code).toBe(0);
    expect((await cli("plugin", "list")).stdout).toBe("off  demo@team 1.0.0  the demo plugin\n");
    await cli("-p", "/demo:hello dave");
    expect(JSON.stringify(served(server)[1]!.messages[0]!.content)).not.toContain("PLUGIN-MARK");
    expect((await cli("plugin", "enable", "demo@team")).code).toBe(0);
    await cli("-p", "/demo:hello erin");
    expect(JSON.stringify(served(server)[2]!.messages[0]!.content)).toContain("Say hello to erin from PLUGIN-MARK");

    const gone = await cli("plugin", "uninstall", "demo@team");
    expect(gone.code).toBe(0);
    expect(existsSync(home)).toBe(false);
    expect((await cli("plugin", "list")).stdout).toContain("no plugins installed");
    expect(JSON.parse(readFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), "utf8"))).toEqual({ enabledPlugins: {} });
  });

  test("marketplace update moves to the new commit; one added at a commit id stays pinned there", async () => {
    const root = tempProject("khaelor-market-");
    const { work, bare } = marketplaceRepo(root, "team", "MARK-V1");
    const v1 = git(bare, "rev-parse", "HEAD");
    const env = isolatedEnv(null);
    const dir = tempProject();
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });
    expect((await cli("plugin", "marketplace", "add", bare)).code).toBe(0); // a local bare repository, by path

    const env2 = isolatedEnv(null);
    const pinned = await runCli(["plugin", "marketplace", "add", `${bare}#${v1}`], { cwd: dir, env: env2 });
    expect(pinned.stdout).toContain(`at ${v1.slice(0, 12)} (pinned)`);

    put(work, "plugins/demo/commands/hello.md", "Say hello to $ARGUMENTS from MARK-V2\n");
    git(work, "commit", "-qam", "v2");
    git(work, "push", "-q", bare, "main");
    const v2 = git(bare, "rev-parse", "HEAD");

    const updated = await cli("plugin", "marketplace", "update", "team");
    expect(updated.stdout).toBe(`team: ${v1.slice(0, 12)} → ${v2.slice(0, 12)}\n`);
    expect((await cli("plugin", "install", "demo@team")).code).toBe(0);
    expect(readFileSync(join(env.KHAELOR_HOME!, "plugins", "cache", "team", "demo", "commands", "hello.md"), "utf8")).toContain("MARK-V2");

    const stays = await runCli(["plugin", "marketplace", "update", "team"], { cwd: dir, env: env2 });
    expect(stays.stdout).toBe(`team: pinned, stays at ${v1.slice(0, 12)}\n`);
    expect((await runCli(["plugin", "install", "demo@team"], { cwd: dir, env: env2 })).code).toBe(0);
    expect(readFileSync(join(env2.KHAELOR_HOME!, "plugins", "cache", "team", "demo", "commands", "hello.md"), "utf8")).toContain("MARK-V1");
  });

  test("bad input: a repository that cannot be fetched, a marketplace.json that is wrong, a plugin it does not have", async () => {
    const env = isolatedEnv(null);
    const dir = tempProject();
    const cli = (...args: string[]) => runCli(args, { cwd: dir, env });
    const nowhere = join(tempProject("khaelor-market-"), "missing.git");
    const r = await cli("plugin", "marketplace", "add", `file://${nowhere}`);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`khaelor plugin: cannot fetch the marketplace file://${nowhere}: git clone failed:`);
    expect(existsSync(join(env.KHAELOR_HOME!, "plugins", "known_marketplaces.json"))).toBe(false);

    const broken = tempProject("khaelor-market-");
    put(broken, ".claude-plugin/marketplace.json", JSON.stringify({ name: "bad one", plugins: "none" }));
    const b = await cli("plugin", "marketplace", "add", broken);
    expect(b.code).toBe(1);
    expect(b.stderr).toContain(`${join(broken, ".claude-plugin", "marketplace.json")}: name: letters, digits`);
    expect(b.stderr).toContain("plugins: ");

    const root = tempProject("khaelor-market-");
    marketplaceRepo(root);
    expect((await cli("plugin", "marketplace", "add", join(root, "market-work"))).code).toBe(0); // a folder, read where it is
    const missing = await cli("plugin", "install", "nope@team");
    expect(missing.stderr).toBe("khaelor plugin: the marketplace team has no plugin nope (it has: demo)\n");
    expect((await cli("plugin", "install", "demo@elsewhere")).stderr).toContain("no marketplace named elsewhere: add it first");
  });

  test("a plugin enabled but not installed: a notice, and the session goes on", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "went on" }] }] });
    const env = isolatedEnv(server.url);
    const dir = tempProject();
    put(env.HOME!, ".claude/settings.json", JSON.stringify({ enabledPlugins: { "ghost@team": true } }));
    const r = await runCli(["-p", "hi"], { cwd: dir, env: { ...env, CLAUDE_CONFIG_DIR: join(env.HOME!, ".claude") } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("went on");
    expect(r.stderr).toContain(`plugin ghost@team is enabled in ${join(env.HOME!, ".claude", "settings.json")} but not installed: khaelor plugin install ghost@team`);
  });
});
