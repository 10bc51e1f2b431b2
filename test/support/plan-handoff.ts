// What every mode's "clear the context and implement" must send first: one message holding the
// user's request and the plan, and nothing of the planning turns (their text, their calls) nor the
// plan-mode reminder.
import { expect } from "bun:test";

export function expectCleanHandoff(body: unknown, o: { request: string; plan: string; planning: string[] }): void {
  const messages = (body as { messages: unknown[] }).messages;
  expect(messages.length).toBe(1);
  const text = JSON.stringify(messages);
  expect(text).toContain(o.request);
  expect(text).toContain(o.plan);
  for (const p of o.planning) expect(text).not.toContain(p);
  expect(text).not.toContain("Plan mode is on");
}
