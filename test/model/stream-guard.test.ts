// The model stream's waits (src/model/stream-guard.ts): one guard serves every SSE event of an
// answer, thousands of waits, so a wait must leave nothing behind once it has settled.
import { expect, test } from "bun:test";
import { ABORTED, IDLE, StreamGuard } from "../../src/model/stream-guard.ts";

test("a settled wait keeps nothing alive: what it resolved with can be collected while the stream goes on", async () => {
  const controller = new AbortController();
  const guard = new StreamGuard(controller.signal, 60_000);
  const refs: WeakRef<object>[] = [];
  // Each wait resolves with an event-sized object, as it.next() does for each SSE event.
  const waitOnce = async () => {
    const event = { type: "content_block_delta", delta: { text: "x".repeat(64) } };
    refs.push(new WeakRef(event));
    await guard.promptly(Promise.resolve(event));
  };
  for (let i = 0; i < 200; i++) await waitOnce();
  Bun.gc(true);
  await Promise.resolve();
  Bun.gc(true);
  const alive = refs.filter((r) => r.deref() !== undefined).length;
  // The guard is still in use (the stream is not over); before the fix every one of the 200
  // stayed reachable through a reaction on the guard's one long-lived promise.
  expect(alive).toBeLessThan(20);
  guard.close();
});

test("a wait in progress fails with ABORTED as soon as the signal aborts, and later waits at once", async () => {
  const controller = new AbortController();
  const guard = new StreamGuard(controller.signal, 60_000);
  const never = new Promise<string>(() => {});
  const waiting = guard.promptly(never);
  controller.abort();
  await expect(waiting).rejects.toBe(ABORTED);
  await expect(guard.promptly(never)).rejects.toBe(ABORTED);
  guard.close();
});

test("a wait that gets nothing for idleMs fails with IDLE; one that settles in time does not", async () => {
  const guard = new StreamGuard(new AbortController().signal, 30);
  expect(await guard.promptly(Promise.resolve("in time"))).toBe("in time");
  await expect(guard.promptly(new Promise<string>(() => {}))).rejects.toBe(IDLE);
  guard.close();
});

test("a rejected wait rejects with its own error, and the guard serves the next wait", async () => {
  const guard = new StreamGuard(new AbortController().signal, 60_000);
  const boom = new Error("socket hang up");
  await expect(guard.promptly(Promise.reject(boom))).rejects.toBe(boom);
  expect(await guard.promptly(Promise.resolve(7))).toBe(7);
  guard.close();
});
