import { z } from "zod";
import { StringDecoder } from "node:string_decoder";
import { commandEnv, groupAlive, signalGroup, spawnShellGroup } from "../workspace/process-group.ts";
import { describeMarked, findMarked, inOwnPidNamespace, stopMarked } from "../workspace/marked-processes.ts";
import { OutputCollector } from "./output-budget.ts";
import { trackCwd } from "./shell-cwd.ts";
import { answering, displayPath, localWorkspace, ok, fail, withNotes } from "./results.ts";
import type { Tool, ToolContext } from "./types.ts";
import type { CommandTerminal, ConfinedCommand, LocalWorkspace } from "../workspace/types.ts";
import description from "./bash.md" with { type: "text" };

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
/** After TERM, how long a group may take to die before KILL (cancellation must finish in 200 ms). */
const KILL_GRACE_MS = 100;

const schema = z.object({
  command: z.string().min(1),
  timeout: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional(),
  description: z.string().optional(),
  /** Claude Code's name: run this one command outside the sandbox (the gate always asks). */
  dangerouslyDisableSandbox: z.boolean().optional(),
});
type Input = z.infer<typeof schema>;

/** Carried by every process a bash call starts, so those that leave its group are still found. */
export const CALL_MARK = "KHAELOR_CALL";

let seq = 0;

export const bashTool: Tool<Input> = {
  name: "bash",
  description,
  inputSchema: schema,
  readOnly: false,
  destructive: true,
  claudeName: "Bash",
  kind: "execute",
  reach: (i) => ({ paths: [], command: i.command, ...(i.dangerouslyDisableSandbox ? { outsideSandbox: true as const } : {}) }),
  preview: (i) => ({ detail: { label: "command", text: i.command } }),
  summarize: (i) => `bash: ${i.description ?? i.command.split("\n")[0]!.slice(0, 80)}`,
  async run(input, ctx) {
    const ws = localWorkspace(ctx);
    const timeoutMs = input.timeout ?? DEFAULT_TIMEOUT_MS;
    seq++;
    const { script, finalCwd } = trackCwd(input.command);
    if (ctx.signal.aborted) return fail("cancelled before it started");

    const started = Date.now();
    const run = ws.terminal ? await inTerminal(ws.terminal, script, ctx, timeoutMs) : await here(script, ws, ctx, timeoutMs, input.dangerouslyDisableSandbox === true, input.command);
    const { code, signal, ended, escaped } = run;

    const newCwd = finalCwd();
    const cwdChanged = newCwd !== null && newCwd !== ws.cwd;
    if (newCwd) ws.cwd = newCwd;

    const r = run.out.finish();
    // The model's notes, and the user's: how it ended, without the advice and the cwd.
    const notes: string[] = [];
    const userNotes: string[] = [];
    const note = (forModel: string, forUser: string | null = forModel) => {
      notes.push(forModel);
      if (forUser !== null) userNotes.push(forUser);
    };
    const killedAll = "the command and everything it started were killed";
    if (ended === "timeout") {
      note(`timed out after ${timeoutMs} ms: ${killedAll}. For servers and watchers use the process tool; for long builds pass a larger timeout (at most ${MAX_TIMEOUT_MS})`, `timed out: ${killedAll}`);
    } else if (ended === "cancelled") {
      note(`cancelled by the user after ${Date.now() - started} ms; ${killedAll}`, `cancelled by the user; ${killedAll}`);
    } else if (signal) {
      note(`killed by ${signal}`);
    } else if (code !== 0) {
      note(`exit code ${code}`);
    }
    for (const b of run.confined?.finish(r.text) ?? []) note(b);
    // Under bubblewrap what the command left dies with its pid namespace: the sandbox saw it.
    const leftovers = run.leftovers || run.confined?.leftBehind() === true;
    const stopped = "background processes the command left running were stopped";
    if (leftovers && !ended) note(`${stopped}; start long-running programs with the process tool`, stopped);
    if (escaped?.length) {
      const them = escaped.length === 1 ? "it" : "them";
      const what = `the command started ${escaped.length === 1 ? "a process" : `${escaped.length} processes`} that left its process group (setsid or a double fork): ${escaped.map(describeMarked).join(", ")}; stopped, since nothing would manage ${them}`;
      note(`${what}. Start long-running programs with the process tool`, what);
    }
    note(`cwd: ${displayPath(ws, ws.cwd)}${cwdChanged ? " (changed)" : ""}`, null);
    const body = r.text === "" ? "(no output)" : r.text.replace(/\n$/, "");
    const { text, display } = withNotes(body, notes, userNotes, { cwd: ws.cwd, lines: run.out.lineCount });
    const failed = ended !== null || signal !== null || code !== 0;
    // Claude Code's Bash result, as its hooks read it: our shell sends stderr into stdout (the
    // model reads them interleaved, as the user would have).
    return answering(failed ? fail(text, display) : ok(text, display), { stdout: r.text.replace(/\n$/, ""), stderr: "", interrupted: ended !== null, isImage: false });
  },
};

type Ran = {
  out: OutputCollector;
  code: number | null;
  signal: string | null;
  ended: "timeout" | "cancelled" | null;
  leftovers: boolean;
  /** Processes that left the group and were stopped. */
  escaped: NonNullable<ReturnType<typeof findMarked>>;
  /** The sandbox it ran in, if any. */
  confined?: ConfinedCommand | null;
};

/** The command as a process group of ours, its output streamed to the UI. */
async function here(script: string, ws: LocalWorkspace, ctx: ToolContext, timeoutMs: number, outside: boolean, line: string): Promise<Ran> {
  // The session's mark and this call's: what leaves the group (setsid, a double fork) keeps them.
  const callMark = `khaelor-${process.pid}-${seq}-${Date.now().toString(36)}`;
  const confined = outside ? null : (ws.confine?.wrap(["bash", "-c", `exec 2>&1\n${script}`], { cwd: ws.cwd, pty: false, line }) ?? null);
  const env = commandEnv({ ...ws.processes.mark, [CALL_MARK]: callMark, ...confined?.env });
  const g = spawnShellGroup(script, { cwd: ws.cwd, env, stdin: "ignore", ...(confined ? { wrap: () => confined.argv, fds: confined.fds, stderr: "pipe" as const } : {}) });
  const untrack = ws.processes.track(g.pid);
  const out = new OutputCollector(ws.spill, "bash");
  const decoder = new StringDecoder("utf8");
  const stdoutClosed = new Promise<void>((r) => g.child.stdout!.on("close", () => r()));
  g.child.stdout!.on("data", (b: Buffer) => {
    const s = decoder.write(b);
    out.push(s, b);
    if (s) ctx.onProgress?.(s);
  });
  // A confined command's wrapper (nsenter, bwrap) says why it could not start on stderr: shown, not lost.
  g.child.stderr?.on("data", (b: Buffer) => {
    const s = b.toString("utf8");
    out.push(s, b);
    ctx.onProgress?.(s);
  });

  let ended: "timeout" | "cancelled" | null = null;
  const kill = (why: "timeout" | "cancelled") => {
    if (ended) return;
    ended = why;
    signalGroup(g.pid, "SIGTERM");
    setTimeout(() => signalGroup(g.pid, "SIGKILL"), KILL_GRACE_MS).unref();
  };
  const timer = setTimeout(() => kill("timeout"), timeoutMs);
  const onAbort = () => kill("cancelled");
  ctx.signal.addEventListener("abort", onAbort, { once: true });

  const { code, signal } = await g.exited;
  clearTimeout(timer);
  ctx.signal.removeEventListener("abort", onAbort);
  // Whatever the command left running in its group would be orphaned: stop it now.
  const leftovers = groupAlive(g.pid);
  if (leftovers) signalGroup(g.pid, "SIGKILL");
  untrack();
  // Daemons outside the group still carry the call's mark: they are stopped too, and named.
  const marked = findMarked(`${CALL_MARK}=${callMark}`);
  const escaped = marked && confined ? inOwnPidNamespace(marked) : marked;
  if (escaped?.length) await stopMarked(escaped, KILL_GRACE_MS);
  // Output still in the pipe arrives after exit; a process outside the group (a daemon that
  // called setsid) could hold the pipe open forever, so wait only briefly.
  await Promise.race([stdoutClosed, new Promise((r) => setTimeout(r, 500))]);
  out.push(decoder.end(), new Uint8Array());
  g.child.stdout!.destroy();

  return { out, code, signal, ended, leftovers, escaped: escaped ?? [], confined };
}

/**
 * The command in the editor's terminal (ACP): the user watches it there, so nothing streams here;
 * the result is what the terminal kept. A timeout or a cancel kills it through the editor.
 */
async function inTerminal(terminal: CommandTerminal, script: string, ctx: ToolContext, timeoutMs: number): Promise<Ran> {
  const ws = localWorkspace(ctx);
  let ended: "timeout" | "cancelled" | null = null;
  const stop = new AbortController();
  const timer = setTimeout(() => {
    ended ??= "timeout";
    stop.abort();
  }, timeoutMs);
  const onAbort = () => {
    ended ??= "cancelled";
    stop.abort();
  };
  ctx.signal.addEventListener("abort", onAbort, { once: true });
  // What commandEnv changes (pagers off, no prompts), over the editor's own environment; no stdin,
  // as here: a command waiting for keys would wait for the timeout.
  const base = commandEnv({ ...ws.processes.mark });
  const env = Object.fromEntries(Object.entries(base).filter(([k, v]) => process.env[k] !== v));
  try {
    const r = await terminal.run(`exec </dev/null 2>&1\n${script}`, { cwd: ws.cwd, env, toolUseId: ctx.toolUseId, signal: stop.signal });
    const out = new OutputCollector(ws.spill, "bash");
    const text = r.truncated ? `[the terminal kept only the end of the output]\n${r.output}` : r.output;
    out.push(text, new TextEncoder().encode(text));
    return { out, code: r.code, signal: r.signal, ended, leftovers: false, escaped: [] };
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
  }
}
