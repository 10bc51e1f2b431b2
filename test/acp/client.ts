// An editor for the tests: `khaelor acp` as a child process with the real ACP client library
// (@agentclientprotocol/sdk) connected to its stdio, answering fs/* and terminal/* as an editor does.
import { readFileSync } from "node:fs";
import * as acp from "@agentclientprotocol/sdk";
import type { RequestPermissionRequest, SessionNotification, SessionUpdate } from "@agentclientprotocol/sdk";
import { cliCommand } from "../support/cli.ts";

export type Handlers = {
  permission?: (req: RequestPermissionRequest) => acp.RequestPermissionResponse | Promise<acp.RequestPermissionResponse>;
  /** The editor's buffers, by absolute path: served to fs/read_text_file, changed by fs/write_text_file. */
  buffers?: Map<string, string>;
  /** The editor's terminals: each terminal/* request, in order, as "method id". */
  terminals?: string[];
};

type Terminal = { proc: ReturnType<typeof Bun.spawn>; output: string; drained: Promise<void>; killed: boolean };
const exitStatus = (t: Terminal) => ({ exitCode: t.proc.signalCode ? null : t.proc.exitCode, signal: t.proc.signalCode ? String(t.proc.signalCode) : null });

/** `khaelor acp` as a child process, and an ACP client connected to its stdio. */
export function startAgent(cwd: string, env: Record<string, string>, h: Handlers = {}) {
  // No verification nudge: the scripted turns end where the test says.
  const proc = Bun.spawn(cliCommand(["acp", "--no-verify-nudge"]), { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const input = new WritableStream<Uint8Array>({
    write(chunk) {
      proc.stdin.write(chunk);
      proc.stdin.flush();
    },
    close() {
      proc.stdin.end();
    },
  });
  const updates: SessionNotification[] = [];
  const waiters = new Set<() => void>();
  const terms = new Map<string, Terminal>();
  const term = (method: string, id: string) => {
    h.terminals?.push(`${method} ${id}`);
    return terms.get(id)!;
  };
  const asked: RequestPermissionRequest[] = [];
  const app = acp
    .client({ name: "test-editor" })
    .onNotification("session/update", ({ params }) => {
      updates.push(params);
      for (const w of [...waiters]) w();
    })
    .onRequest("session/request_permission", async ({ params }) => {
      asked.push(params);
      return h.permission ? h.permission(params) : { outcome: { outcome: "cancelled" } };
    })
    .onRequest("fs/read_text_file", ({ params }) => {
      const b = h.buffers?.get(params.path);
      return { content: b ?? readFileSync(params.path, "utf8") };
    })
    .onRequest("fs/write_text_file", ({ params }) => {
      // An editor keeps the change in its buffer; it reaches the disk when the user saves.
      h.buffers?.set(params.path, params.content);
      return {};
    })
    // A terminal as an editor runs one: its own process, its own environment on top of what the agent asks.
    .onRequest("terminal/create", ({ params }) => {
      const env: Record<string, string> = { ...(process.env as Record<string, string>), IN_EDITOR_TERMINAL: "yes" };
      for (const v of params.env ?? []) env[v.name] = v.value;
      const proc = Bun.spawn([params.command, ...(params.args ?? [])], { cwd: params.cwd ?? cwd, env, stdout: "pipe", stderr: "pipe" });
      const t: Terminal = { proc, output: "", drained: Promise.resolve(), killed: false };
      const decoder = new TextDecoder();
      t.drained = (async () => {
        for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) t.output += decoder.decode(chunk, { stream: true });
      })();
      const id = `term-${terms.size + 1}`;
      terms.set(id, t);
      h.terminals?.push(`create ${id}`);
      return { terminalId: id };
    })
    .onRequest("terminal/wait_for_exit", async ({ params }) => {
      const t = term("wait_for_exit", params.terminalId);
      await t.proc.exited;
      if (!t.killed) await t.drained;
      return exitStatus(t);
    })
    .onRequest("terminal/output", ({ params }) => {
      const t = term("output", params.terminalId);
      return { output: t.output, truncated: false, exitStatus: t.proc.exitCode === null && !t.proc.signalCode ? null : exitStatus(t) };
    })
    .onRequest("terminal/kill", ({ params }) => {
      const t = term("kill", params.terminalId);
      t.killed = true;
      t.proc.kill();
      return {};
    })
    .onRequest("terminal/release", ({ params }) => {
      term("release", params.terminalId).proc.kill();
      return {};
    });
  const stream = acp.ndJsonStream(input, proc.stdout as ReadableStream<Uint8Array>);
  const stderr = new Response(proc.stderr).text();
  return {
    proc,
    updates,
    asked,
    stderr,
    /** Resolves once an update satisfies `pred` (checked as each arrives); fails after `ms` with what came. */
    waitForUpdate(pred: (u: SessionUpdate) => boolean, what: string, ms = 20_000): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!updates.some((u) => pred(u.update))) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no update for ${what}; got ${JSON.stringify(updates.map((u) => u.update)).slice(-2000)}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    /** Runs `op` on the connection, then closes the client's end of the pipe, as an editor that quits does. */
    async run<T>(op: (ctx: acp.ClientContext) => Promise<T>): Promise<T> {
      try {
        return await app.connectWith(stream, op);
      } finally {
        proc.stdin.end();
      }
    },
  };
}

export const initialize = (ctx: acp.ClientContext) =>
  ctx.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });

export const kinds = (us: SessionNotification[]) => us.map((u) => u.update.sessionUpdate);
export const ofKind = <K extends SessionUpdate["sessionUpdate"]>(us: SessionNotification[], k: K) => us.map((u) => u.update).filter((u): u is Extract<SessionUpdate, { sessionUpdate: K }> => u.sessionUpdate === k);
export const text = (us: SessionNotification[], k: "agent_message_chunk" | "agent_thought_chunk" | "user_message_chunk") =>
  ofKind(us, k)
    .map((u) => (u.content.type === "text" ? u.content.text : ""))
    .join("");
