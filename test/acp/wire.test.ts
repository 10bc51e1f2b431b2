// `khaelor acp` at the edges of its pipe: a message over the size limit is answered with an error
// and the connection goes on (raw bytes on the agent's stdin, then the real ACP client); the ways
// the connection ends (end of input, SIGTERM, a client that stops reading) are clean and, when not
// the end of input, said on stderr.
import { describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import * as acp from "@agentclientprotocol/sdk";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { cliCommand, isolatedEnv, tempProject } from "../support/cli.ts";
import { MAX_MESSAGE_BYTES } from "../../src/stdio/json-lines.ts";

const serve = fakeApiFixture();
const STACK = /\n\s+at \S/;

/** `khaelor acp` with a raw pipe on stdin; its stdout split in two: raw lines for the test, bytes for an ACP client. */
function startRaw(cwd: string, env: Record<string, string>) {
  const proc = Bun.spawn(cliCommand(["acp", "--no-verify-nudge"]), { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const [forTest, forClient] = (proc.stdout as ReadableStream<Uint8Array>).tee();
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<() => void> = [];
  void (async () => {
    const dec = new TextDecoder();
    let buf = "";
    for await (const chunk of forTest) {
      buf += dec.decode(chunk, { stream: true });
      for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
        lines.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
        buf = buf.slice(nl + 1);
        for (const w of waiters.splice(0)) w();
      }
    }
  })();
  const stderr = new Response(proc.stderr).text();
  return {
    proc,
    lines,
    stderr,
    /** Writes bytes as they are, in pieces a pipe takes. */
    async raw(bytes: Uint8Array) {
      for (let i = 0; i < bytes.length; i += 1 << 20) {
        proc.stdin.write(bytes.subarray(i, i + (1 << 20)));
        await proc.stdin.flush();
      }
    },
    async lineWhere(pred: (l: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
      for (;;) {
        const found = lines.find(pred);
        if (found) return found;
        await new Promise<void>((r) => waiters.push(r));
      }
    },
    /** The real ACP client on the same pipe, after whatever raw bytes went before. */
    client<T>(op: (ctx: acp.ClientContext) => Promise<T>, app: ReturnType<typeof acp.client> = acp.client({ name: "test-editor" })): Promise<T> {
      const input = new WritableStream<Uint8Array>({
        write(chunk) {
          proc.stdin.write(chunk);
          proc.stdin.flush();
        },
      });
      // The client's own reading limit above ours: the test sends what the agent must refuse.
      return app.connectWith(acp.ndJsonStream(input, forClient, { maxMessageBytes: 2 * MAX_MESSAGE_BYTES }), op);
    },
  };
}

const initialize = (ctx: acp.ClientContext) => ctx.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });

/** One line of `size` bytes: a JSON-RPC request with its id first, padded inside its params. */
function bigRequest(id: string, size: number): Uint8Array {
  const start = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"session/prompt","params":{"pad":"`;
  const end = `"}}\n`;
  const bytes = new Uint8Array(size + 1);
  bytes.fill(0x61);
  bytes.set(new TextEncoder().encode(start), 0);
  bytes.set(new TextEncoder().encode(end), size + 1 - end.length);
  return bytes;
}

describe("khaelor acp on its pipe", () => {
  test("a message over the size limit gets -32600 with its size and the limit (its id when it can be read, null when not); the connection stays up; end of input ends it quietly with 0", async () => {
    const a = startRaw(tempProject(), isolatedEnv(null));
    const size = MAX_MESSAGE_BYTES + 5 * 1024 * 1024;
    await a.raw(bigRequest("big-1", size));
    const withId = await a.lineWhere((l) => l.id === "big-1");
    expect(withId.error).toMatchObject({ code: -32600 });
    const message = String((withId.error as { message: string }).message);
    expect(message).toContain(size.toLocaleString("en-US"));
    expect(message).toContain(MAX_MESSAGE_BYTES.toLocaleString("en-US"));
    // Not JSON at all, no id to read: id null.
    const junk = new Uint8Array(MAX_MESSAGE_BYTES + 10).fill(0x78);
    junk[junk.length - 1] = 0x0a;
    await a.raw(junk);
    const anonymous = await a.lineWhere((l) => l.id === null);
    expect(anonymous.error).toMatchObject({ code: -32600 });
    // The connection is still up: the real client's initialize is answered.
    const info = await a.client(async (ctx) => initialize(ctx));
    expect(info.agentInfo?.name).toBe("khaelor");
    a.proc.stdin.end();
    expect(await a.proc.exited).toBe(0);
    const stderr = await a.stderr;
    expect(stderr).not.toMatch(STACK);
    expect(stderr).toContain("over the limit");
  });

  test("an editor's answer over the limit (a huge buffer for fs/read_text_file) fails that request with the reason; the turn goes on", async () => {
    const dir = tempProject();
    writeFileSync(join(dir, "big.txt"), "small on disk\n");
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "read", input: { file_path: "big.txt" } }] },
        { content: [{ type: "text", text: "could not read it" }], expect: { lastHasToolResult: { isError: true, contentMatches: "too large" } } },
      ],
    });
    const a = startRaw(dir, isolatedEnv(server.url));
    const huge = "b".repeat(MAX_MESSAGE_BYTES + 1024);
    const editor = acp.client({ name: "test-editor" }).onRequest("fs/read_text_file", () => ({ content: huge })).onRequest("fs/write_text_file", () => ({}));
    const stop = await a.client(async (ctx) => {
      await ctx.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false } });
      const { sessionId } = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      return ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "read big.txt" }] });
    }, editor);
    expect(stop.stopReason).toBe("end_turn");
    expect(server.checkFailures).toEqual([]);
    a.proc.stdin.end();
    expect(await a.proc.exited).toBe(0);
    expect(await a.stderr).toContain("skipped the client's answer to request");
  });

  test("SIGTERM mid-prompt ends it with 143 and says so, no stack trace", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "a slow answer ".repeat(300) }], pacing: { delayMs: 15, textChunk: 4 } }] });
    const dir = tempProject();
    const a = startRaw(dir, isolatedEnv(server.url));
    await a
      .client(async (ctx) => {
        await initialize(ctx);
        const { sessionId } = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
        const prompt = ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "talk" }] });
        await a.lineWhere((l) => (l.params as { update?: { sessionUpdate?: string } } | undefined)?.update?.sessionUpdate === "agent_message_chunk");
        a.proc.kill("SIGTERM");
        await prompt;
      })
      .catch(() => {});
    expect(await a.proc.exited).toBe(143);
    const stderr = await a.stderr;
    expect(stderr).toContain("SIGTERM");
    expect(stderr).not.toMatch(STACK);
  });

  test("a client that stops reading: the agent's next write fails, it ends and says why", async () => {
    // node:child_process, whose stdout pipe the test can close outright.
    const child = spawn(cliCommand(["acp"])[0]!, cliCommand(["acp"]).slice(1), { cwd: tempProject(), env: isolatedEnv(null), stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const send = (o: object) => child.stdin.write(`${JSON.stringify(o)}\n`);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} } });
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    child.stdout.destroy();
    send({ jsonrpc: "2.0", id: 2, method: "session/list", params: {} });
    const code = await exited;
    expect(stderr).toMatch(/khaelor acp: .*(client|stdout)/);
    expect(stderr).not.toMatch(STACK);
    expect(code).toBe(1);
  });
});
