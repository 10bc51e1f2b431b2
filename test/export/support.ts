// A real session log to export or search: written by the session store (createSession) into a
// temporary KHAELOR_HOME, so the exporter reads exactly what KHAELOR writes.
import { join } from "node:path";
import { createSession } from "../../src/session/store.ts";
import type { DurableEvent } from "../../src/events/types.ts";
import { scratch } from "../support/scratch.ts";

export function dataHome(): { home: string; env: Record<string, string> } {
  const home = join(scratch("khaelor-export-"), "data");
  return { home, env: { KHAELOR_HOME: home } };
}

/** A log for `cwd` holding `events`; returns its path and id. */
export function writeSession(cwd: string, env: Record<string, string>, events: DurableEvent[], sessionId?: string): { path: string; id: string } {
  // The writer's redactor sees an empty environment: only the secret shapes are redacted on the way in.
  const w = createSession({ cwd, model: "claude-sonnet-5-5", permissionMode: "default", env, seed: events, ...(sessionId ? { sessionId } : {}) });
  const path = w.path;
  w.close();
  return { path, id: path.split("/").pop()!.replace(/\.jsonl$/, "") };
}
