// The sandbox's measure, in a realistic session: a real agent session (openAgentSession) against
// the fake Messages API, whose script makes 30 tool calls in a small Node project (tests, builds,
// git, a dev server started with the process tool and curled from bash, a package installed from a
// registry on this machine), once with the sandbox off and once on (autoAllowBashIfSandboxed, the
// registry's host an allowed domain). Every call runs for real; the Asker counts the permission
// prompts the user would have answered and allows each. The registry is reached by this machine's
// hostname: inside the sandbox loopback is the session's own, so a host service is reached only
// through the proxy, as registry.npmjs.org would be.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { openAgentSession } from "../src/agent/agent-session.ts";
import type { Asker } from "../src/agent/types.ts";
import { startFakeApi } from "../src/fakeapi/index.ts";
import { probeSandbox } from "../src/sandbox/availability.ts";

type Call = { name: string; input: Record<string, unknown> };
const bash = (command: string): Call => ({ name: "bash", input: { command } });

function session(registry: string, port: number): Call[] {
  return [
    bash("ls -a"),
    { name: "read", input: { file_path: "package.json" } },
    bash("git status --short"),
    bash("git log --oneline -3"),
    { name: "grep", input: { pattern: "TODO" } },
    bash("npm test"),
    bash("npm run build"),
    bash("node --version"),
    { name: "process", input: { action: "start", name: "dev", command: "npm run dev" } },
    { name: "process", input: { action: "read", id: "dev", wait_for: "listening", timeout: 20_000 } },
    bash(`curl -s http://localhost:${port}/`),
    bash(`npm install --no-audit --no-fund --registry ${registry} mini-pkg`),
    bash(`node -e "console.log(require('mini-pkg'))"`),
    { name: "write", input: { file_path: "src/feature.js", content: "module.exports = () => 'feature';\n" } },
    bash("npm test"),
    bash("git add -A"),
    bash("git -c user.email=a@b -c user.name=a commit -qm feature"),
    bash("git checkout -q -b next"),
    bash("mkdir -p tmp && cp -r src tmp/"),
    bash("rm -rf tmp"),
    bash("sed -i s/feature/feat/ src/feature.js"),
    bash("npm run lint"),
    bash(`curl -s http://localhost:${port}/health`),
    { name: "process", input: { action: "stop", id: "dev" } },
    bash("echo node_modules >> .gitignore"),
    bash("git diff --stat"),
    bash("git stash -q"),
    bash("git stash pop -q"),
    bash("python3 -c 'print(6*7)'"),
    bash("npm ls --depth=0"),
  ];
}

function project(port: number): string {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-bench-proj-"));
  const scripts = { test: "node test.js", build: "node build.js", dev: "node server.js", lint: "node lint.js" };
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", private: true, scripts }, null, 2));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "index.js"), "// TODO: more\nmodule.exports = 1;\n");
  writeFileSync(join(dir, "test.js"), "require('assert').strictEqual(require('./src/index.js'), 1); console.log('ok');\n");
  writeFileSync(join(dir, "build.js"), "require('fs').mkdirSync('dist', { recursive: true }); require('fs').writeFileSync('dist/out.js', '1');\n");
  writeFileSync(join(dir, "lint.js"), "console.log('lint ok');\n");
  writeFileSync(join(dir, "server.js"), `require('http').createServer((q, r) => r.end('dev ' + q.url)).listen(${port}, '127.0.0.1', () => console.log('listening'));\n`);
  execFileSync("git", ["init", "-q"], { cwd: dir });
  execFileSync("git", ["-c", "user.email=a@b", "-c", "user.name=a", "commit", "-q", "--allow-empty", "-m", "start"], { cwd: dir });
  return dir;
}

/** A registry with one package, served on all interfaces (the proxy reaches it by hostname). */
async function miniRegistry(): Promise<{ url: string; close(): void }> {
  const src = mkdtempSync(join(tmpdir(), "khaelor-bench-pkg-"));
  writeFileSync(join(src, "package.json"), JSON.stringify({ name: "mini-pkg", version: "1.0.0", main: "index.js" }));
  writeFileSync(join(src, "index.js"), "module.exports = 'mini-pkg works';\n");
  const tgzName = execFileSync("npm", ["pack", "--silent"], { cwd: src, encoding: "utf8" }).trim().split("\n").pop()!;
  const tgz = await Bun.file(join(src, tgzName)).bytes();
  let base = "";
  const server = Bun.serve({
    port: 0,
    hostname: "0.0.0.0",
    fetch(req): Response {
      const path = new URL(req.url).pathname;
      if (path === "/mini-pkg") return Response.json({ name: "mini-pkg", "dist-tags": { latest: "1.0.0" }, versions: { "1.0.0": { name: "mini-pkg", version: "1.0.0", main: "index.js", dist: { tarball: `${base}/mini-pkg/-/${tgzName}` } } } });
      if (path === `/mini-pkg/-/${tgzName}`) return new Response(tgz);
      return new Response("not found", { status: 404 });
    },
  });
  base = `http://${hostname()}:${server.port}`;
  return { url: base, close: () => (server.stop(true), rmSync(src, { recursive: true, force: true })) };
}

async function runSession(sandboxOn: boolean, registry: string): Promise<{ prompts: number; failed: string[]; ms: number }> {
  const home = mkdtempSync(join(tmpdir(), "khaelor-bench-home-"));
  const saved = { KHAELOR_HOME: process.env.KHAELOR_HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  process.env.KHAELOR_HOME = join(home, "data");
  process.env.XDG_CONFIG_HOME = join(home, "config");
  mkdirSync(join(home, "config", "khaelor"), { recursive: true });
  if (sandboxOn) writeFileSync(join(home, "config", "khaelor", "settings.json"), JSON.stringify({ sandbox: { enabled: true, network: { allowedDomains: [hostname()] } } }));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const cwd = project(port);
  const calls = session(registry, port);
  const api = await startFakeApi({ scenario: { turns: [...calls.map((c) => ({ content: [{ type: "tool_use" as const, name: c.name, input: c.input }] })), { content: [{ type: "text" as const, text: "done" }] }] } });
  let prompts = 0;
  const ask: Asker = async () => (prompts++, { allow: true });
  const t0 = performance.now();
  const s = await openAgentSession({ api: { baseURL: api.url, apiKey: "sk-ant-test" }, cwd, ask });
  try {
    await s.runTurn("work on the project", new AbortController().signal);
  } finally {
    await s.close();
    await api.close();
    Object.assign(process.env, saved);
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
  }
  const ms = performance.now() - t0;
  // The last request holds every tool result: which calls failed, and how.
  const last = api.requests.at(-1)?.body as { messages?: { content?: unknown }[] } | undefined;
  const results = (last?.messages ?? []).flatMap((m) => (Array.isArray(m.content) ? m.content : [])) as { type: string; is_error?: boolean; content?: unknown }[];
  const failed = results.filter((b) => b.type === "tool_result" && b.is_error).map((b) => JSON.stringify(b.content).slice(0, 160));
  rmSync(cwd, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  return { prompts, failed, ms };
}

export async function run(_opts: { json: boolean }) {
  const avail = probeSandbox();
  if (!avail.ok) return [{ name: "sandbox session (skipped)", why: avail.why }];
  const registry = await miniRegistry();
  try {
    const off = await runSession(false, registry.url);
    const on = await runSession(true, registry.url);
    return [
      {
        name: `sandbox: permission prompts in a real ${session("", 0).length}-call session against the fake Messages API (default mode; sandbox on: autoAllowBashIfSandboxed)`,
        prompts_off: off.prompts,
        prompts_on: on.prompts,
        failed_calls_off: off.failed.length,
        failed_calls_on: on.failed.length,
        session_ms_off: Math.round(off.ms),
        session_ms_on: Math.round(on.ms),
        ...(on.failed.length || off.failed.length ? { failures: { off: off.failed, on: on.failed } } : {}),
      },
    ];
  } finally {
    registry.close();
  }
}
