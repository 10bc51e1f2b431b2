// Peak memory of resuming a large session log: `bun bench/resume-rss.ts <MB>` writes a log of
// about that size (turns with 64 KB tool results, as a long session with big outputs makes), then
// resumes it in a fresh process (the real openAgentSession: lock, read, replay, context) and
// prints the log size and that process's peak RSS. Run by hand (it takes a while for GBs); the
// figures go in the commit that changes them.
import { mkdirSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [mode, arg1, arg2] = process.argv.slice(2);

if (mode === "--child") {
  const { openAgentSession } = await import("../src/agent/agent-session.ts");
  const started = performance.now();
  const s = await openAgentSession({ cwd: arg1!, resume: { id: arg2! } });
  const ms = performance.now() - started;
  const rssMb = process.resourceUsage().maxRSS / 1024;
  await s.close();
  console.log(JSON.stringify({ resumeMs: Math.round(ms), peakRssMb: Math.round(rssMb) }));
  process.exit(0);
}

const targetMb = Number(mode ?? 200);
const root = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), "khaelor-rss-"));
const env = { KHAELOR_HOME: join(root, "data") };
const cwd = join(root, "project");
mkdirSync(cwd, { recursive: true });
const { createSession } = await import("../src/session/store.ts");
const w = createSession({ cwd, model: "claude-sonnet-5-5", permissionMode: "default", env });
const big = "0123456789abcdef ".repeat(4096).slice(0, 64 * 1024);
let i = 0;
while (statSync(w.path).size < targetMb * 1024 * 1024) {
  const t = Date.now();
  const id = `toolu_${i}`;
  w.append({ type: "user_message", id: `u${i}`, ts: t, content: `step ${i}: run the build` });
  w.append({ type: "assistant_message", id: `a${i}`, ts: t, message: { id: `msg_${i}`, model: "claude-sonnet-5-5", content: [{ type: "tool_use", id, name: "bash", input: { command: "make" } }], stop_reason: "tool_use", usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } }, costUsd: 0 });
  w.append({ type: "tool_result", id: `r${i}`, ts: t, toolUseId: id, name: "bash", content: `${big}#${i}`, isError: false, kind: "ok", summary: "bash: make", durationMs: 1 });
  w.append({ type: "assistant_message", id: `b${i}`, ts: t, message: { id: `msg_b${i}`, model: "claude-sonnet-5-5", content: [{ type: "text", text: "Built." }], stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } }, costUsd: 0 });
  w.append({ type: "turn_end", id: `e${i}`, ts: t, reason: "finished" });
  i++;
}
w.close();
const sizeMb = Math.round(statSync(w.path).size / 1024 / 1024);
const child = Bun.spawn([process.execPath, import.meta.path, "--child", cwd, w.sessionId], {
  env: { ...process.env, ...env, ANTHROPIC_API_KEY: "sk-ant-bench", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" },
  stdout: "pipe",
  stderr: "inherit",
});
const out = (await new Response(child.stdout).text()).trim();
await child.exited;
console.log(JSON.stringify({ logMb: sizeMb, turns: i, ...JSON.parse(out.split("\n").at(-1) ?? "{}") }));
Bun.spawnSync(["rm", "-rf", root]);
