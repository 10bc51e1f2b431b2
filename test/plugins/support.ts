// Shared by the plugin tests: real plugin folders in Claude Code's layout (a command, a skill, a
// hook that writes a file, an MCP server on @modelcontextprotocol/sdk), and real git repositories.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { TEST_SERVER } from "../mcp/support.ts";

export const gitEnv = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };

export function put(dir: string, rel: string, text: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-C", cwd, ...args], { env: gitEnv, stdio: "pipe" }).toString().trim();
}

/**
 * A plugin named `name` at `dir`: /name:hello (its body carries `mark`), the skill name:greet, a
 * UserPromptSubmit hook that runs ${CLAUDE_PLUGIN_ROOT}/hooks/write.sh (it writes hook-ran.txt in
 * the project, naming the plugin root it got), and the MCP server `tools` (the test server, started
 * through ${CLAUDE_PLUGIN_ROOT}/server.ts).
 */
export function writePlugin(dir: string, name: string, mark = "PLUGIN-MARK", manifest: object | null = { name, version: "1.0.0", description: `the ${name} plugin` }): string {
  if (manifest) put(dir, ".claude-plugin/plugin.json", JSON.stringify(manifest));
  put(dir, "commands/hello.md", `---\ndescription: Say hello\n---\nSay hello to $ARGUMENTS from ${mark}\n`);
  put(dir, "agents/reviewer.md", "---\nname: reviewer\ndescription: Reviews code for the plugin\n---\nReview the code.\n");
  put(dir, "skills/greet/SKILL.md", "---\nname: greet\ndescription: Greets people warmly\n---\nGreet them.\n");
  put(dir, "hooks/hooks.json", JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "sh ${CLAUDE_PLUGIN_ROOT}/hooks/write.sh" }] }] } }));
  put(dir, "hooks/write.sh", 'echo "$CLAUDE_PLUGIN_ROOT" > "$CLAUDE_PROJECT_DIR/hook-ran.txt"\n');
  put(dir, "server.ts", `await import(${JSON.stringify(TEST_SERVER)});\n`);
  put(dir, ".mcp.json", JSON.stringify({ mcpServers: { tools: { command: process.execPath, args: ["${CLAUDE_PLUGIN_ROOT}/server.ts"] } } }));
  return dir;
}

/** A marketplace repository with the plugin `demo` under plugins/demo, committed; and a bare clone of it. */
export function marketplaceRepo(root: string, name = "team", mark = "PLUGIN-MARK"): { work: string; bare: string } {
  const work = join(root, "market-work");
  writePlugin(join(work, "plugins", "demo"), "demo", mark);
  put(work, ".claude-plugin/marketplace.json", JSON.stringify({ name, owner: { name: "Team" }, plugins: [{ name: "demo", source: "./plugins/demo", description: "the demo plugin" }] }));
  git(root, "init", "-q", "-b", "main", work);
  git(work, "add", "-A");
  git(work, "commit", "-qm", "v1");
  const bare = join(root, "market.git");
  execFileSync("git", ["clone", "-q", "--bare", work, bare], { env: gitEnv, stdio: "pipe" });
  return { work, bare };
}

type Body = { system: Array<{ text: string }>; messages: Array<{ role: string; content: unknown }>; tools?: Array<{ name: string; description?: string }> };
export const served = (server: { requests: Array<{ outcome: string; body: unknown }> }) => server.requests.filter((q) => q.outcome === "served").map((q) => q.body as Body);
