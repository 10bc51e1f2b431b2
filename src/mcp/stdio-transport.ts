// The stdio transport for MCP servers, ours rather than the SDK's: the server runs as the leader of
// its own process group carrying the session's mark (as the model's processes do), so stopping it
// stops what it started (npx → node), and a run killed with -9 can find and stop it on --resume.
// It also keeps what a failing server said: the tail of its stderr and any stdout lines that are
// not JSON-RPC, which become the reason in its status.
import { spawn, type ChildProcess } from "node:child_process";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { signalGroup } from "../workspace/process-group.ts";
import { stopGroup } from "../workspace/process-registry.ts";
import type { StdioSpec } from "./config.ts";

const STDERR_TAIL = 4000;
const MAX_LINE = 64 * 1024 * 1024;

/** How long a server has to exit on the end of its input before it gets SIGTERM. */
const EOF_GRACE_MS = 250;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | null = null;
  private buffer = "";
  private exited: Promise<void> | null = null;
  stderrTail = "";
  /** The first stdout line that was not JSON-RPC, and how many there were. */
  junk: { first: string; count: number } | null = null;
  exit: { code: number | null; signal: string | null } | null = null;

  constructor(
    private readonly spec: StdioSpec,
    private readonly opts: { cwd: string; env: Record<string, string> },
  ) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.spec.command, this.spec.args, {
        cwd: this.spec.cwd ? this.spec.cwd : this.opts.cwd,
        env: this.opts.env,
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
      });
      this.child = child;
      this.exited = new Promise((done) => child.once("close", () => done()));
      child.once("error", (e) => {
        const err = (e as NodeJS.ErrnoException).code === "ENOENT" ? new Error(`command not found: ${this.spec.command}`) : e;
        reject(err);
        this.onerror?.(err);
      });
      child.once("spawn", () => resolve());
      child.once("exit", (code, signal) => {
        this.exit = { code, signal };
      });
      child.once("close", () => {
        this.child = null;
        this.onclose?.();
      });
      child.stdin!.on("error", (e) => this.onerror?.(e));
      child.stdout!.setEncoding("utf8");
      child.stdout!.on("data", (chunk: string) => this.read(chunk));
      child.stderr!.setEncoding("utf8");
      child.stderr!.on("data", (chunk: string) => {
        this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL);
      });
    });
  }

  private read(chunk: string): void {
    this.buffer += chunk;
    if (this.buffer.length > MAX_LINE) {
      this.buffer = "";
      this.onerror?.(new Error("the server sent a line longer than 64 MB"));
      return;
    }
    for (let nl = this.buffer.indexOf("\n"); nl !== -1; nl = this.buffer.indexOf("\n")) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, "");
      this.buffer = this.buffer.slice(nl + 1);
      if (!line.trim()) continue;
      let message: JSONRPCMessage | null = null;
      try {
        const parsed = JSONRPCMessageSchema.safeParse(JSON.parse(line));
        if (parsed.success) message = parsed.data;
      } catch {
        // not JSON: a server that logs to stdout
      }
      if (message) this.onmessage?.(message);
      else this.junk = this.junk ? { ...this.junk, count: this.junk.count + 1 } : { first: line.slice(0, 200), count: 1 };
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) throw new Error("the server is not running");
    const data = `${JSON.stringify(message)}\n`;
    if (!stdin.write(data)) await new Promise<void>((r) => stdin.once("drain", () => r()));
  }

  /** End stdin (a well-behaved server exits), then TERM and KILL the whole group. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    try {
      child.stdin?.end();
    } catch {}
    // As the MCP spec's stdio shutdown says: the end of its input first, and a moment to act on
    // what is still in the pipe (a call's cancellation) and exit; then SIGTERM.
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (this.exited) await Promise.race([this.exited, new Promise((r) => (timer = setTimeout(r, EOF_GRACE_MS)))]);
    clearTimeout(timer);
    await stopGroup(child.pid, this.exited, "SIGTERM", 1000);
  }

  /** For process exit: no waiting. */
  killSync(): void {
    if (this.child?.pid) signalGroup(this.child.pid, "SIGKILL");
  }
}
