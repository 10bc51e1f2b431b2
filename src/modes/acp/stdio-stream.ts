// The ACP connection's pipe: JSON-RPC messages one per line on stdin and stdout, in place of the
// SDK's ndJsonStream, which ends the whole connection (silently, exit 0) on one message over its
// size limit. Here such a message gets a JSON-RPC error (-32600, with its id when its start shows
// it) and the next line is read as usual; a line that is not JSON gets -32700 as in the SDK.
// Messages that are JSON but not JSON-RPC are the connection's to answer, as with the SDK's stream.
import * as acp from "@agentclientprotocol/sdk";
import type { AnyMessage, Stream } from "@agentclientprotocol/sdk";
import { EXIT } from "../shared/exit-codes.ts";
import { onStopSignals } from "../shared/signals.ts";
import { jsonLines, leadingFields, MAX_MESSAGE_BYTES, tooLargeMessage } from "../../stdio/json-lines.ts";

export type StdioStreamOptions = {
  input: AsyncIterable<Uint8Array>;
  /** Writes one line; rejects when it cannot (the client closed its end). */
  write: (line: string) => Promise<void>;
  /** A message skipped for its size, for stderr. */
  onSkipped: (note: string) => void;
  limit?: number;
};

export function stdioStream(opts: StdioStreamOptions): Stream {
  const limit = opts.limit ?? MAX_MESSAGE_BYTES;
  // One queue for our own error answers and the connection's messages: lines never interleave.
  let queue = Promise.resolve();
  const send = (message: unknown): Promise<void> => {
    const next = queue.then(() => opts.write(`${JSON.stringify(message)}\n`));
    queue = next.catch(() => {});
    return next;
  };
  let cancelled = false;
  const readable = new ReadableStream<AnyMessage>({
    async start(controller) {
      try {
        for await (const l of jsonLines(opts.input, limit)) {
          if (cancelled) return;
          if (l.kind === "too_large") {
            const { keys, values } = leadingFields(l.head);
            const id = values.get("id");
            const why = tooLargeMessage(l.bytes, limit);
            // The client's answer to one of our requests (a huge buffer for fs/read_text_file): that
            // request fails with the reason, instead of waiting for an answer that never comes.
            if (id !== undefined && !keys.includes("method") && (keys.includes("result") || keys.includes("error"))) {
              opts.onSkipped(`skipped the client's answer to request ${JSON.stringify(id)}: ${why}`);
              controller.enqueue({ jsonrpc: "2.0", id, error: acp.RequestError.invalidRequest(undefined, `the editor's answer was too large: ${why}`).toErrorResponse() });
              continue;
            }
            opts.onSkipped(`skipped a message${id !== undefined ? ` (id ${JSON.stringify(id)})` : ""}: ${why}`);
            await send({ jsonrpc: "2.0", id: id ?? null, error: acp.RequestError.invalidRequest(undefined, why).toErrorResponse() });
            continue;
          }
          if (!l.text.trim()) continue;
          let message: unknown;
          try {
            message = JSON.parse(l.text);
          } catch {
            await send({ jsonrpc: "2.0", id: null, error: acp.RequestError.parseError().toErrorResponse() });
            continue;
          }
          controller.enqueue(message as AnyMessage);
        }
        if (!cancelled) controller.close();
      } catch (e) {
        // A read error (not the end of input): the connection closes with it as the reason.
        if (!cancelled) controller.error(e);
      }
    },
    // The connection closed (a signal, a failed write): what still arrives is not read.
    cancel() {
      cancelled = true;
    },
  });
  const writable = new WritableStream<AnyMessage>({ write: (message) => send(message) });
  return { readable, writable };
}

type Connection = { readonly closed: Promise<void>; readonly signal: AbortSignal; close(error?: unknown): void };

/**
 * Runs a connection on stdin and stdout until it ends, and says how it ended: the end of input
 * (the client closed its end) quietly with 0; a signal with its exit code; anything else (a
 * client that stopped reading, a read error) with 1 and the reason on stderr. A second signal
 * while the sessions close exits at once.
 */
export async function serveStdio(connect: (stream: Stream) => Connection, log: (line: string) => void): Promise<number> {
  // Set from callbacks: how the connection ended, when not by an error.
  const end: { eof: boolean; signal: { why: string; code: number } | null } = { eof: false, signal: null };
  async function* input(): AsyncGenerator<Uint8Array> {
    for await (const chunk of process.stdin as AsyncIterable<Uint8Array>) yield chunk;
    end.eof = true;
  }
  // A write to a client that closed its end fails here too: the write's own callback carries it.
  const onStdoutError = () => {};
  process.stdout.on("error", onStdoutError);
  const write = (line: string) => new Promise<void>((resolve, reject) => void process.stdout.write(line, (e) => (e ? reject(e) : resolve())));
  const conn = connect(stdioStream({ input: input(), write, onSkipped: log }));
  const offSignals = onStopSignals((s) => {
    end.signal = { why: `stopped by ${s.name}`, code: s.code };
    conn.close(new Error(end.signal.why));
  });
  await conn.closed;
  offSignals();
  if (end.signal) {
    log(`${end.signal.why}; closing the sessions`);
    return end.signal.code;
  }
  if (end.eof) return EXIT.ok;
  log(`the connection ended: ${describe(conn.signal.reason)}`);
  return EXIT.error;
}

/** A close reason in words: a closed pipe is the client gone, not a bug. */
function describe(reason: unknown): string {
  const code = (reason as { code?: unknown } | null)?.code;
  if (code === "EPIPE" || code === "ERR_STREAM_DESTROYED") return "the client closed its end of our output (EPIPE)";
  return reason instanceof Error ? reason.message : String(reason);
}
