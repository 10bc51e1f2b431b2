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
/** One message (a line) at most; a server that sends more is stopped (the call fails at once). */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
const NEWLINE = 0x0a;

/** How long a server has to exit on the end of its input before it gets SIGTERM. */
const EOF_GRACE_MS = 250;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcess | null = null;
  /** The line being read, in the chunks it came in: only a new chunk is searched for its end. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private closeSent = false;
  private exited: Promise<void> | null = null;
  stderrTail = "";
  /** The first stdout line that was not JSON-RPC, and how many there were. */
  junk: { first: string; count: number } | null = null;
  exit: { code: number | null; signal: string | null } | null = null;
  /** Set when the server sent a message over the limit and was stopped for it. */
  overflow: { limit: number } | null = null;

  constructor(
    private readonly spec: StdioSpec,
    private readonly opts: { cwd: string; env: Record<string, string>; maxMessageBytes?: number },
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
        this.sendClose();
      });
      child.stdin!.on("error", (e) => this.onerror?.(e));
      child.stdout!.on("data", (chunk: Buffer) => this.read(chunk));
      child.stderr!.setEncoding("utf8");
      child.stderr!.on("data", (chunk: string) => {
        this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL);
      });
    });
  }

  private sendClose(): void {
    if (this.closeSent) return;
    this.closeSent = true;
    this.onclose?.();
  }

  private read(chunk: Buffer): void {
    if (this.overflow) return;
    const limit = this.opts.maxMessageBytes ?? MAX_MESSAGE_BYTES;
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      const tail = chunk.subarray(start, nl);
      if (this.partialBytes + tail.length > limit) return this.overflowed(limit);
      const line = this.partial.length === 0 ? tail : Buffer.concat([...this.partial, tail]);
      this.partial = [];
      this.partialBytes = 0;
      start = nl + 1;
      this.handleLine(line.toString("utf8"));
      if (this.overflow) return;
    }
    if (start === chunk.length) return;
    this.partialBytes += chunk.length - start;
    if (this.partialBytes > limit) return this.overflowed(limit);
    this.partial.push(chunk.subarray(start));
  }

  /**
   * A message over the limit: nothing more is read, the calls waiting fail now (the client hears
   * the connection closed), and the server is stopped; the next call starts it again.
   */
  private overflowed(limit: number): void {
    this.overflow = { limit };
    this.partial = [];
    this.partialBytes = 0;
    this.child?.stdout?.destroy();
    // stopping it is best effort (it ends with SIGKILL); the calls need not wait for it
    this.close().catch(() => {});
    this.sendClose();
  }

  private handleLine(text: string): void {
    const line = text.replace(/\r$/, "");
    if (!line.trim()) return;
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
