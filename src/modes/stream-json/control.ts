// Our side of the control protocol: requests we send the host (can_use_tool) wait here for the
// host's control_response; a host that goes away (end of input) or a turn that is cancelled ends
// the wait, and the host is told with a control_cancel_request.
import type { ControlResponseLine } from "./wire.ts";

export type ControlAnswer = { ok: true; response: Record<string, unknown> } | { ok: false; error: string };

export type ControlChannel = {
  request(request: Record<string, unknown> & { subtype: string }, signal: AbortSignal): Promise<ControlAnswer>;
  /** A control_response line from the host; false when it answers nothing we asked. */
  settle(line: ControlResponseLine): boolean;
  /** The host can no longer answer: every open request ends with this error. */
  closeAll(error: string): void;
};

export function createControlChannel(writeLine: (o: object) => void): ControlChannel {
  let next = 0;
  const open = new Map<string, (a: ControlAnswer) => void>();
  let closed: string | null = null;
  return {
    request(request, signal) {
      if (closed) return Promise.resolve({ ok: false, error: closed });
      if (signal.aborted) return Promise.resolve({ ok: false, error: "cancelled" });
      const id = `khaelor-${++next}`;
      return new Promise<ControlAnswer>((resolve) => {
        const onAbort = () => {
          if (!open.delete(id)) return;
          writeLine({ type: "control_cancel_request", request_id: id });
          resolve({ ok: false, error: "cancelled" });
        };
        open.set(id, (a) => {
          signal.removeEventListener("abort", onAbort);
          resolve(a);
        });
        signal.addEventListener("abort", onAbort, { once: true });
        writeLine({ type: "control_request", request_id: id, request });
      });
    },
    settle(line) {
      const r = line.response;
      const done = open.get(r.request_id);
      if (!done) return false;
      open.delete(r.request_id);
      done(r.subtype === "success" ? { ok: true, response: r.response ?? {} } : { ok: false, error: r.error });
      return true;
    },
    closeAll(error) {
      closed = error;
      for (const [id, done] of open) {
        open.delete(id);
        done({ ok: false, error });
      }
    },
  };
}
