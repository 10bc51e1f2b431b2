// A plugin that only the project's settings enable is the project's: it stays off in an untrusted
// project (print mode says so, naming it), the app's trust question lists it as one item with what
// it runs, and once trusted its hooks, commands and MCP server join the session. A plugin the user
// enabled runs without a question. The plugin is installed by the user either way.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "../agent/support.ts";
import { writeInstalled } from "../../src/plugins/store.ts";
import { marketplaceRepo, put, served, writePlugin } from "./support.ts";

const serve = fakeApiFixture();

/** The user installed demo@team but turned it off; the project's .claude/settings.json turns it on. */
async function projectEnabled(env: Record<string, string>): Promise<string> {
  const { bare } = marketplaceRepo(tempProject("khaelor-market-"));
  const dir = tempProject();
  for (const args of [["plugin", "marketplace", "add", bare], ["plugin", "install", "demo@team"], ["plugin", "disable", "demo@team"]]) expect((await runCli(args, { cwd: dir, env })).code).toBe(0);
  put(dir, ".claude/settings.json", JSON.stringify({ enabledPlugins: { "demo@team": true } }));
  return dir;
}

describe("a plugin only the project enables", () => {
  test("print mode: it stays off in an untrusted project, with a notice naming it; --trust-project turns it on for the run", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "one" }] }, { content: [{ type: "text", text: "two" }] }] });
    const env = isolatedEnv(server.url);
    const dir = await projectEnabled(env);
    const off = await runCli(["-p", "/demo:hello zed"], { cwd: dir, env });
    expect(off.code).toBe(0);
    expect(off.stderr).toContain(`not loading a plugin this project's settings enable, as ${dir} is not trusted:`);
    expect(off.stderr).toContain(`plugin demo@team (${join(dir, ".claude", "settings.json")}): `);
    expect(off.stderr).toContain("runs hook UserPromptSubmit: sh ");
    expect(off.stderr).toContain("MCP server plugin_demo_tools: ");
    expect(existsSync(join(dir, "hook-ran.txt"))).toBe(false);
    const first = served(server)[0]!;
    expect(JSON.stringify(first.messages[0]!.content)).not.toContain("PLUGIN-MARK");
    expect(first.tools!.map((t) => t.name)).not.toContain("mcp__plugin_demo_tools__echo");

    const on = await runCli(["-p", "/demo:hello zed", "--trust-project"], { cwd: dir, env });
    expect(on.code).toBe(0);
    expect(existsSync(join(dir, "hook-ran.txt"))).toBe(true);
    expect(JSON.stringify(served(server)[1]!.messages[0]!.content)).toContain("Say hello to zed from PLUGIN-MARK");
  });

  test("the user's own enabling needs no trust: enabled in the user's settings, it runs in an untrusted project", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "one" }] }] });
    const env = isolatedEnv(server.url);
    const dir = await projectEnabled(env);
    expect((await runCli(["plugin", "enable", "demo@team"], { cwd: dir, env })).code).toBe(0);
    const r = await runCli(["-p", "/demo:hello yu"], { cwd: dir, env });
    expect(r.stderr).not.toContain("not trusted");
    expect(existsSync(join(dir, "hook-ran.txt"))).toBe(true);
    expect(JSON.stringify(served(server)[0]!.messages[0]!.content)).toContain("from PLUGIN-MARK");
  });

  test("the app's question: one item for the plugin, listing what it runs; trusted, its command, hook and MCP server join at once, and it is not asked again", async () => {
    await inIsolatedHome(async ({ data }) => {
      const plugin = writePlugin(join(data, "plugins", "cache", "team", "demo"), "demo");
      writeInstalled({ "demo@team": { path: plugin, version: "1.0.0", installedAt: new Date().toISOString() } });
      const dir = gitProject();
      put(dir, ".claude/settings.json", JSON.stringify({ enabledPlugins: { "demo@team": true } }));
      const api = await serve({ turns: [{ content: [{ type: "text", text: "hi" }] }] });
      const session = await openOn(api, dir, { ask: async () => ({ allow: false }), trustQuestion: true });
      try {
        const items = session.trust.pending();
        expect(items.map((i) => [i.kind, i.name])).toEqual([["plugin", "demo@team"]]);
        expect(items[0]!.command).toContain(`hook UserPromptSubmit: sh ${plugin}/hooks/write.sh`);
        expect(items[0]!.command).toContain(`MCP server plugin_demo_tools: ${process.execPath} ${plugin}/server.ts`);
        expect(session.slashCommands().map((c) => c.name)).not.toContain("demo:hello");
        await session.trust.answer("trust");
        expect(session.trust.pending()).toEqual([]);
        expect(session.slashCommands().map((c) => c.name)).toContain("demo:hello");
        expect(session.mcp.toolNames()).toContain("mcp__plugin_demo_tools__echo");
        await session.runTurn("hello", signal());
        expect(readFileSync(join(dir, "hook-ran.txt"), "utf8").trim()).toBe(plugin);
      } finally {
        await session.close();
      }
      const again = await openOn(api, dir, { ask: async () => ({ allow: false }), trustQuestion: true });
      try {
        expect(again.trust.pending()).toEqual([]);
        expect(again.slashCommands().map((c) => c.name)).toContain("demo:hello");
      } finally {
        await again.close();
      }
    });
  });
});
