import { z } from "zod";
import { lstatSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { commandEnv, groupAlive, signalGroup, spawnShellGroup } from "../workspace/process-group.ts";
import { describeMarked, findMarked, stopMarked } from "../workspace/marked-processes.ts";
import { OutputCollector } from "./output-budget.ts";
import { readRegularText } from "../workspace/safe-read.ts";
import { displayPath, localWorkspace, ok, fail, withNotes } from "./results.ts";
import type { Tool } from "./types.ts";
import description from "./bash.md" with { type: "text" };

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
/** After TERM, how long a group may take to die before KILL (cancellation must finish in 200 ms). */
const KILL_GRACE_MS = 100;

const schema = z.object({
  command: z.string().min(1).describe("The command to run"),
  timeout: z.number().int().min(1).max(MAX_TIMEOUT_MS).optional().describe("Timeout in milliseconds (default 120000, max 600000)"),
  description: z.string().optional().describe("What the command does, in a few words (shown to the user)"),
});
type Input = z.infer<typeof schema>;

/** Carried by every process a bash call starts, so those that leave its group are still found. */
export const CALL_MARK = "KHAELOR_CALL";

const shQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
let seq = 0;

/**
 * Where the shell leaves its final directory: a 0700 directory of this process with a random name
 * (mkdtemp). A predictable name in the shared $TMPDIR let another local user plant the file and move
 * the agent into a folder of theirs.
 */
let privateDir: string | null = null;
function cwdDir(): string {
  if (privateDir === null || !ownPrivateDir(privateDir)) {
    privateDir = mkdtempSync(join(tmpdir(), "khaelor-"));
    const made = privateDir;
    process.once("exit", () => rmSync(made, { recursive: true, force: true }));
  }
  return privateDir;
}

function ownPrivateDir(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return st.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o077) === 0;
  } catch {
    return false;
  }
}

/** The directory the shell wrote, trusted only as a regular file of ours naming an existing directory. */
function readCwdFile(file: string): string | null {
  try {
    const st = lstatSync(file);
    if (!st.isFile() || st.uid !== process.getuid?.() || st.size > 16_384) return null;
    const dir = readRegularText(file, 16_384).replace(/\n$/, "");
    return dir.startsWith("/") && !dir.includes("\n") && statSync(dir).isDirectory() ? dir : null;
  } catch {
    return null;
  } finally {
    rmSync(file, { force: true });
  }
}

export const bashTool: Tool<Input> = {
  name: "bash",
  description,
  inputSchema: schema,
  readOnly: false,
  destructive: true,
  summarize: (i) => `bash: ${i.description ?? i.command.split("\n")[0]!.slice(0, 80)}`,
  async run(input, ctx) {
    const ws = localWorkspace(ctx);
    const timeoutMs = input.timeout ?? DEFAULT_TIMEOUT_MS;
    const cwdFile = join(cwdDir(), `cwd-${++seq}`);
    rmSync(cwdFile, { force: true });
    // The EXIT trap records where the command ended up, even after an explicit `exit N`.
    const script = `trap '__khaelor_ec=$?; pwd -P > ${shQuote(cwdFile)} 2>/dev/null; exit $__khaelor_ec' EXIT\n${input.command}`;
    if (ctx.signal.aborted) return fail("cancelled before it started");

    // The session's mark and this call's: what leaves the group (setsid, a double fork) keeps them.
    const callMark = `khaelor-${process.pid}-${seq}-${Date.now().toString(36)}`;
    const g = spawnShellGroup(script, { cwd: ws.cwd, env: commandEnv({ ...ws.processes.mark, [CALL_MARK]: callMark }), stdin: "ignore" });
    const untrack = ws.processes.track(g.pid);
    const out = new OutputCollector(ws.spill, "bash");
    const decoder = new StringDecoder("utf8");
    const stdoutClosed = new Promise<void>((r) => g.child.stdout!.on("close", () => r()));
    g.child.stdout!.on("data", (b: Buffer) => {
      const s = decoder.write(b);
      out.push(s, b);
      if (s) ctx.onProgress?.(s);
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

    const started = Date.now();
    const { code, signal } = await g.exited;
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onAbort);
    // Whatever the command left running in its group would be orphaned: stop it now.
    const leftovers = groupAlive(g.pid);
    if (leftovers) signalGroup(g.pid, "SIGKILL");
    untrack();
    // Daemons outside the group still carry the call's mark: they are stopped too, and named.
    const escaped = findMarked(`${CALL_MARK}=${callMark}`);
    if (escaped?.length) await stopMarked(escaped, KILL_GRACE_MS);
    // Output still in the pipe arrives after exit; a process outside the group (a daemon that
    // called setsid) could hold the pipe open forever, so wait only briefly.
    await Promise.race([stdoutClosed, new Promise((r) => setTimeout(r, 500))]);
    out.push(decoder.end(), new Uint8Array());
    g.child.stdout!.destroy();

    const newCwd = readCwdFile(cwdFile);
    const cwdChanged = newCwd !== null && newCwd !== ws.cwd;
    if (newCwd) ws.cwd = newCwd;

    const r = out.finish();
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
    const stopped = "background processes the command left running were stopped";
    if (leftovers && !ended) note(`${stopped}; start long-running programs with the process tool`, stopped);
    if (escaped?.length) {
      const them = escaped.length === 1 ? "it" : "them";
      const what = `the command started ${escaped.length === 1 ? "a process" : `${escaped.length} processes`} that left its process group (setsid or a double fork): ${escaped.map(describeMarked).join(", ")}; stopped, since nothing would manage ${them}`;
      note(`${what}. Start long-running programs with the process tool`, what);
    }
    note(`cwd: ${displayPath(ws, ws.cwd)}${cwdChanged ? " (changed)" : ""}`, null);
    const body = r.text === "" ? "(no output)" : r.text.replace(/\n$/, "");
    const { text, display } = withNotes(body, notes, userNotes, { cwd: ws.cwd, lines: out.lineCount });
    const failed = ended !== null || signal !== null || code !== 0;
    return failed ? fail(text, display) : ok(text, display);
  },
};
