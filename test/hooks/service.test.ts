// The hooks service with real commands: same-event hooks run in parallel, a cancel kills them,
// matchers read Claude Code's tool names, and the settings file's bad entries are named.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentEvent } from "../../src/events/types.ts";
import { loadHooks, matches, type HookEntry } from "../../src/hooks/config.ts";
import { createHookService } from "../../src/hooks/hooks.ts";
import { claudeToolName } from "../../src/hooks/tool-names.ts";

const entry = (command: string, extra: Partial<HookEntry> = {}): HookEntry => ({ event: "PreToolUse", matcher: "", command, timeoutS: 20, file: "/test/settings.json", scope: "user", ...extra });

function service(dir: string, entries: HookEntry[]) {
  const events: AgentEvent[] = [];
  const s = createHookService({ entries, projectDir: dir, sessionId: "s1", transcriptPath: "/t.jsonl", permissionMode: () => "default", emit: (e) => events.push(e), fit: (text) => text });
  return { s, events };
}

describe("hooks service", () => {
  test("hooks of one event run in parallel: each waits for the other's mark", async () => {
    const dir = mkdtempSync(join(tmpdir(), "khaelor-hooks-"));
    const wait = (mine: string, theirs: string) => `touch ${mine}; while [ ! -f ${theirs} ]; do sleep 0.02; done`;
    const { s, events } = service(dir, [entry(wait("a", "b")), entry(wait("b", "a"))]);
    await s.run("PreToolUse", "Bash", {}, new AbortController().signal);
    const ends = events.filter((e) => e.type === "hook_end");
    expect(ends.map((e) => e.type === "hook_end" && e.ok)).toEqual([true, true]);
  });

  test("a cancel (Esc) kills a running hook at once and says so", async () => {
    const dir = mkdtempSync(join(tmpdir(), "khaelor-hooks-"));
    const { s, events } = service(dir, [entry("sleep 30")]);
    const ac = new AbortController();
    const started = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (events.some((e) => e.type === "hook_start")) {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    const run = s.run("PreToolUse", "Bash", {}, ac.signal);
    await started;
    ac.abort();
    await run;
    const end = events.find((e) => e.type === "hook_end");
    expect(end).toMatchObject({ ok: false, message: expect.stringContaining("was cancelled") });
  });

  test("every text an outcome carries goes through the budget: context, block, stop and permission reasons", async () => {
    const dir = mkdtempSync(join(tmpdir(), "khaelor-hooks-"));
    const answer = JSON.stringify({
      continue: false,
      stopReason: "stop reason",
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "deny reason", additionalContext: "context" },
    });
    const fitted: string[] = [];
    const s = createHookService({
      entries: [entry(`echo '${answer}'`), entry("echo 'block reason' >&2; exit 2")],
      projectDir: dir,
      sessionId: "s1",
      transcriptPath: "/t.jsonl",
      permissionMode: () => "default",
      emit: () => {},
      fit: (text, label) => (fitted.push(`${label}: ${text}`), `[fitted] ${text}`),
    });
    const o = await s.run("PreToolUse", "Bash", {}, new AbortController().signal);
    expect(fitted.sort()).toEqual(["hook-PreToolUse: block reason", "hook-PreToolUse: context", "hook-PreToolUse: deny reason", "hook-PreToolUse: stop reason"]);
    expect(o).toMatchObject({ context: ["[fitted] context"], block: "[fitted] block reason", stop: "[fitted] stop reason", permission: { decision: "deny", reason: "[fitted] deny reason" } });
  });

  test("matchers are anchored regexes over Claude Code's names", () => {
    expect(matches("Edit|Write", claudeToolName("edit"))).toBe(true);
    expect(matches("Edit|Write", "NotebookEdit")).toBe(false);
    expect(matches("Bash", claudeToolName("bash"))).toBe(true);
    expect(matches("Process", claudeToolName("process"))).toBe(true);
    expect(matches("mcp__memory__.*", "mcp__memory__create_entities")).toBe(true);
    expect(matches("", "Read")).toBe(true);
    expect(matches("*", "Grep")).toBe(true);
  });

  test("bad entries in a settings file are each named with the file; good ones still load", () => {
    const dir = mkdtempSync(join(tmpdir(), "khaelor-hooks-"));
    const file = join(dir, "settings.json");
    writeFileSync(
      file,
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "ok.sh" }, { type: "prompt", prompt: "x" }] }, { matcher: "(", hooks: [] }],
          PostToolUse: "not a list",
          OnTuesday: [],
        },
      }),
    );
    const { entries, problems } = loadHooks([{ scope: "project", file }]);
    expect(entries.map((e) => [e.event, e.matcher, e.command, e.timeoutS])).toEqual([["PreToolUse", "Bash", "ok.sh", 60]]);
    expect(problems.length).toBe(4); // the prompt-type hook, the bad regex, the non-list, the unknown event
    for (const p of problems) expect(p.startsWith(file)).toBe(true);
    expect(problems.join("\n")).toContain("OnTuesday");
  });
});

/** Kills the daemon a hook left behind (its pid in `file`): it is in a session of its own, out of the hook's reach. */
function killDaemon(file: string) {
  if (!existsSync(file)) return;
  try {
    process.kill(Number(readFileSync(file, "utf8").trim()), "SIGKILL");
  } catch {
    // already gone
  }
}

describe("a hook whose daemon keeps its pipes", () => {
  // `setsid` puts the daemon in a session of its own: killing the hook's process group misses it,
  // and it holds the hook's stdout and stderr for as long as it lives (30 s here).
  const daemon = (pidFile: string) => `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 30' & `;

  test("the run ends when the hook's own process exits, with its output kept", async () => {
    const dir = mkdtempSync(join(tmpdir(), "khaelor-hooks-"));
    const pidFile = join(dir, "daemon.pid");
    const context = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "kept after the exit" } });
    const { s, events } = service(dir, [entry(`echo '${context}'; ${daemon(pidFile)}while [ ! -s ${pidFile} ]; do sleep 0.01; done`, { timeoutS: 20 })]);
    try {
      const o = await s.run("PreToolUse", "Bash", {}, new AbortController().signal);
      expect(o.context).toEqual(["kept after the exit"]);
      const end = events.find((e) => e.type === "hook_end");
      expect(end).toMatchObject({ ok: true });
      // Far below the daemon's 30 s and the hook's 20 s timeout: the run did not wait for either.
      expect(end?.type === "hook_end" && end.durationMs).toBeLessThan(5000);
    } finally {
      killDaemon(pidFile);
    }
  });

  test("a hook that hangs itself is cut at its timeout, pipes and all", async () => {
    const dir = mkdtempSync(join(tmpdir(), "khaelor-hooks-"));
    const pidFile = join(dir, "daemon.pid");
    const { s, events } = service(dir, [entry(`echo partial; ${daemon(pidFile)}sleep 30`, { timeoutS: 0.3 })]);
    try {
      await s.run("PreToolUse", "Bash", {}, new AbortController().signal);
      const end = events.find((e) => e.type === "hook_end");
      expect(end).toMatchObject({ ok: false, message: expect.stringContaining("did not finish within its timeout of 0.3 s") });
      expect(end?.type === "hook_end" && end.durationMs).toBeLessThan(5000);
    } finally {
      killDaemon(pidFile);
    }
  });
});
