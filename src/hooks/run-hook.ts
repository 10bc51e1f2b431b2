// Runs one hook command as Claude Code does: through the shell, in the project directory, the
// event's JSON on stdin, CLAUDE_PROJECT_DIR (and KHAELOR_PROJECT_DIR) in its environment, killed
// (its whole process group) at its timeout or when the user cancels. It is done when its own
// process exits, whoever else holds its pipes. Never throws: a command that is missing, hangs,
// dies by a signal or prints garbage comes back as a failed run that says so.
import { spawn } from "node:child_process";
import { z } from "zod";
import type { HookCallback, HookEntry } from "./config.ts";

/** More than any hook should print; the rest is dropped, so a runaway hook cannot fill memory. */
const MAX_OUTPUT = 1 << 20;

/** Claude Code's JSON output, loosely: unknown keys are allowed, wrong types are reported. */
export const HookJson = z.looseObject({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  decision: z.enum(["block", "approve", "allow", "deny"]).optional(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .looseObject({
      hookEventName: z.string().optional(),
      // "defer" (Claude Code's SDK-only answer) is read as no decision.
      permissionDecision: z.enum(["allow", "deny", "ask", "defer"]).optional(),
      permissionDecisionReason: z.string().optional(),
      additionalContext: z.string().optional(),
      updatedInput: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});
export type HookJson = z.infer<typeof HookJson>;

export type HookRun = {
  entry: HookEntry;
  /** null when it did not exit by itself (timeout, cancel, signal, could not start). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Parsed JSON output (exit 0 and stdout a JSON object). */
  json?: HookJson;
  /** Why the run failed in a way the user must hear about (not exit 2, which is a decision). */
  failure?: string;
  durationMs: number;
};

export type RunContext = { projectDir: string; env?: Record<string, string | undefined>; signal: AbortSignal };

/**
 * After the hook's own process exits, how long its pipes may still deliver what it wrote. A child
 * it left behind (a `setsid` daemon, a `cmd &`) can hold them open for hours: the run does not
 * wait for it.
 */
const DRAIN_MS = 150;

export function runHook(entry: HookEntry, input: unknown, ctx: RunContext): Promise<HookRun> {
  if (entry.callback) return runCallback(entry, entry.callback, input as Record<string, unknown>, ctx);
  const t0 = performance.now();
  return new Promise((resolve) => {
    let stdout: Buffer = Buffer.alloc(0);
    let stderr: Buffer = Buffer.alloc(0);
    let settled = false;
    let drain: ReturnType<typeof setTimeout> | undefined;
    const child = spawn("/bin/sh", ["-c", entry.command], {
      cwd: ctx.projectDir,
      env: { ...(ctx.env ?? process.env), ...(entry.plugin ? { CLAUDE_PLUGIN_ROOT: entry.plugin.root } : {}), CLAUDE_PROJECT_DIR: ctx.projectDir, KHAELOR_PROJECT_DIR: ctx.projectDir },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    const finish = (code: number | null, failure?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drain);
      ctx.signal.removeEventListener("abort", onAbort);
      // Whoever still holds the pipes (a daemon the hook started), we stop listening to them.
      child.stdin.destroy();
      child.stdout.destroy();
      child.stderr.destroy();
      resolve(judge(entry, code, stdout, stderr, performance.now() - t0, failure));
    };
    // Timeout or cancel: the group is killed and the run ends now, not when the pipes close (a
    // daemon outside the group may hold them); the exit that follows is ignored.
    const kill = (why: string) => {
      if (settled) return;
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      finish(null, why);
    };
    const timer = setTimeout(() => kill(`did not finish within its timeout of ${entry.timeoutS} s`), entry.timeoutS * 1000);
    const onAbort = () => kill("was cancelled");
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    const append = (buf: Buffer, chunk: Buffer): Buffer => (buf.length >= MAX_OUTPUT ? buf : Buffer.concat([buf, chunk]).subarray(0, MAX_OUTPUT));
    child.stdout.on("data", (c: Buffer) => (stdout = append(stdout, c)));
    child.stderr.on("data", (c: Buffer) => (stderr = append(stderr, c)));
    // A hook that does not read its stdin (most do not) closes the pipe early: that is fine.
    child.stdin.on("error", () => {});
    child.stdin.end(`${JSON.stringify(input)}\n`);
    const exited = (code: number | null, signal: NodeJS.Signals | null) => (signal ? finish(null, `was killed by ${signal}`) : finish(code));
    child.on("error", (e) => finish(null, `could not start: ${e.message}`));
    // The hook is done when its process exits; its pipes get a moment to deliver the rest.
    child.on("exit", (code, signal) => {
      drain ??= setTimeout(() => exited(code, signal), DRAIN_MS);
    });
    child.on("close", exited);
    if (ctx.signal.aborted) onAbort();
  });
}

/** The run as the session reads it: exit code, text, and JSON output or why there is none. */
function judge(entry: HookEntry, code: number | null, stdout: Buffer, stderr: Buffer, durationMs: number, failure: string | undefined): HookRun {
  const out = textOf(stdout);
  const err = textOf(stderr);
  const run: HookRun = { entry, code, stdout: out.text, stderr: err.text, durationMs };
  if (failure) run.failure = failure;
  else if (code === 127) run.failure = `exited 127: the command was not found${err.text.trim() ? ` (${oneLine(err.text)})` : ""}`;
  else if (out.binary) run.failure = "printed binary output on stdout (ignored)";
  else if (code === 0 && out.text.trimStart().startsWith("{")) {
    const parsed = parseJson(out.text);
    if (parsed.ok) run.json = parsed.json;
    else run.failure = `printed invalid JSON on stdout (${parsed.error}); its output was ignored`;
  }
  return run;
}

/** A host's hook: its answer is read as a command's JSON output would be; no answer in time is a failure. */
async function runCallback(entry: HookEntry, callback: HookCallback, input: Record<string, unknown>, ctx: RunContext): Promise<HookRun> {
  const t0 = performance.now();
  const run = (r: Partial<HookRun>): HookRun => ({ entry, code: null, stdout: "", stderr: "", durationMs: performance.now() - t0, ...r });
  const timeout = AbortSignal.timeout(entry.timeoutS * 1000);
  const signal = AbortSignal.any([ctx.signal, timeout]);
  const gaveUp = new Promise<"timeout">((resolve) => signal.addEventListener("abort", () => resolve("timeout"), { once: true }));
  const r = await Promise.race([callback(input, signal), gaveUp]);
  if (r === "timeout") return run({ failure: ctx.signal.aborted ? "was cancelled" : `did not answer within its timeout of ${entry.timeoutS} s` });
  if (!r.ok) return run({ failure: `failed in the host program: ${r.error}` });
  const parsed = HookJson.safeParse(r.output ?? {});
  if (!parsed.success) return run({ failure: `answered with output that is not a hook's (${parsed.error.issues.map((i) => `${i.path.join(".") || "(output)"}: ${i.message}`).join("; ")}); ignored` });
  return run({ code: 0, stdout: JSON.stringify(r.output ?? {}), json: parsed.data });
}

function parseJson(text: string): { ok: true; json: HookJson } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
  const parsed = HookJson.safeParse(raw);
  if (!parsed.success) return { ok: false, error: parsed.error.issues.map((i) => `${i.path.join(".") || "(output)"}: ${i.message}`).join("; ") };
  return { ok: true, json: parsed.data };
}

/** Text, or a note that it was not: NUL bytes or invalid UTF-8 mean binary. */
function textOf(buf: Buffer): { text: string; binary: boolean } {
  const text = buf.toString("utf8");
  return { text, binary: buf.includes(0) || text.includes("\uFFFD") };
}

export function oneLine(s: string, max = 300): string {
  const line = s.trim().replace(/\s*\n\s*/g, " ⏎ ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
