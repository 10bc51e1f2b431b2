// --plugin-dir: a plugin folder in Claude Code's layout loads for the session. The real CLI against
// the fake Messages API: the request log shows the model the plugin's command, skill, MCP tool and
// agent, and the plugin's hook wrote its file with ${CLAUDE_PLUGIN_ROOT} expanded.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { put, served, writePlugin } from "./support.ts";

const serve = fakeApiFixture();

describe("--plugin-dir", () => {
  test("its command, skill, hook and MCP server reach the session", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "mcp__plugin_demo_tools__echo", input: { text: "from-plugin" } }] },
        { content: [{ type: "text", text: "Hello done." }], expect: { lastHasToolResult: { isError: false, contentMatches: "echo: from-plugin" } } },
      ],
    });
    const plugin = writePlugin(join(tempProject("khaelor-plugin-"), "demo"), "demo");
    const dir = tempProject();
    const r = await runCli(["-p", "/demo:hello bob", "--plugin-dir", plugin, "--allowedTools", "mcp__plugin_demo_tools__echo"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(server.checkFailures).toEqual([]);
    expect(r.stderr).not.toContain("not supported yet");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Hello done.");
    const [first] = served(server);
    expect(JSON.stringify(first!.messages[0]!.content)).toContain("Say hello to bob from PLUGIN-MARK");
    expect(first!.system.map((b) => b.text).join("\n")).toContain("- demo:greet: Greets people warmly");
    expect(first!.tools!.map((t) => t.name)).toContain("mcp__plugin_demo_tools__echo");
    // Its agents/ joins the agent types the agent tool offers, named plugin:agent.
    expect(first!.tools!.find((t) => t.name === "agent")!.description).toContain("- demo:reviewer: Reviews code for the plugin");
    expect(readFileSync(join(dir, "hook-ran.txt"), "utf8").trim()).toBe(plugin);
  });

  test("its agents are one catalog with the rest: --agent plugin:agent runs as it, stream-json's initialize and init list it", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "reviewed" }] }, { content: [{ type: "text", text: "ok" }] }] });
    const plugin = writePlugin(join(tempProject("khaelor-plugin-"), "demo"), "demo");
    const dir = tempProject();
    const env = isolatedEnv(server.url);
    const r = await runCli(["-p", "look", "--plugin-dir", plugin, "--agent", "demo:reviewer"], { cwd: dir, env });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(served(server)[0]!.system.map((b) => b.text).join("\n")).toContain("Review the code.");
    const lines = [
      { type: "control_request", request_id: "i1", request: { subtype: "initialize" } },
      { type: "user", message: { role: "user", content: "hi" } },
    ].map((l) => JSON.stringify(l) + "\n");
    const s = await runCli(["--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--plugin-dir", plugin], { cwd: dir, env, stdin: lines.join("") });
    const out = parseNdjson(s.stdout);
    const init = out.find((l) => l.type === "control_response") as { response: { response: { agents: Array<{ name: string }> } } };
    expect(init.response.response.agents.map((a) => a.name)).toContain("demo:reviewer");
    expect(out.find((l) => l.type === "system" && l.subtype === "init")!.agents).toContain("demo:reviewer");
  });

  test("a plugin's command answers to its bare name where no other has it; the skill by /plugin:skill", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }, { content: [{ type: "text", text: "ok" }] }] });
    const plugin = writePlugin(join(tempProject("khaelor-plugin-"), "demo"), "demo");
    const dir = tempProject();
    const env = isolatedEnv(server.url);
    expect((await runCli(["-p", "/hello alice", "--plugin-dir", plugin], { cwd: dir, env })).code).toBe(0);
    expect((await runCli(["-p", "/demo:greet the team", "--plugin-dir", plugin], { cwd: dir, env })).code).toBe(0);
    const [a, b] = served(server);
    expect(JSON.stringify(a!.messages[0]!.content)).toContain("Say hello to alice from PLUGIN-MARK");
    expect(JSON.stringify(b!.messages[0]!.content)).toContain(`Use the skill \\"demo:greet\\": read ${join(plugin, "skills", "greet", "SKILL.md")}`);
  });

  test("two plugins with a command of one name: each by its namespace, the bare name is nobody's", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }, { content: [{ type: "text", text: "ok" }] }] });
    const one = writePlugin(join(tempProject("khaelor-plugin-"), "one"), "one", "MARK-ONE");
    const two = writePlugin(join(tempProject("khaelor-plugin-"), "two"), "two", "MARK-TWO");
    const dir = tempProject();
    const env = isolatedEnv(server.url);
    const r = await runCli(["-p", "/two:hello x", "--plugin-dir", one, "--plugin-dir", two], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(JSON.stringify(served(server)[0]!.messages[0]!.content)).toContain("from MARK-TWO");
    await runCli(["-p", "/hello x", "--plugin-dir", one, "--plugin-dir", two], { cwd: dir, env });
    const sent = JSON.stringify(served(server)[1]!.messages[0]!.content);
    expect(sent).not.toContain("MARK-ONE");
    expect(sent).not.toContain("MARK-TWO");
  });

  test("bad input: no manifest, unknown fields, a missing folder, a broken hooks.json: a notice naming the file, and the session goes on", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "went on" }] }] });
    const base = tempProject("khaelor-plugin-");
    const bare = writePlugin(join(base, "bare-one"), "bare-one", "MARK-BARE", null);
    const odd = writePlugin(join(base, "odd"), "odd", "MARK-ODD", { name: "odd", version: "1", colour: "blue", flavour: 2 });
    put(odd, "hooks/hooks.json", "{ not json");
    const dir = tempProject();
    const r = await runCli(["-p", "/odd:hello x", "--plugin-dir", bare, "--plugin-dir", odd, "--plugin-dir", join(base, "nowhere")], { cwd: dir, env: isolatedEnv(server.url) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("went on");
    expect(r.stderr).toContain(`${join(bare, ".claude-plugin", "plugin.json")}: missing; the plugin is loaded under its folder's name, bare-one`);
    expect(r.stderr).toContain(`${join(odd, ".claude-plugin", "plugin.json")}: unknown fields colour, flavour (ignored; the plugin still loads)`);
    expect(r.stderr).toContain(`plugin ${join(base, "nowhere")}: no such folder; not loaded`);
    expect(r.stderr).toContain(`${join(odd, "hooks", "hooks.json")}: not valid JSON`);
    expect(JSON.stringify(served(server)[0]!.messages[0]!.content)).toContain("from MARK-ODD");
    expect(existsSync(join(dir, "hook-ran.txt"))).toBe(true); // bare-one's hook still ran
  });
});
