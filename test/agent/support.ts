// For tests that open a session in-process (openAgentSession, no CLI start): a data directory and
// a user config directory of their own, a git project, and the fake Messages API's endpoint.
import { execSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openAgentSession } from "../../src/agent/agent-session.ts";
import type { AgentSession, SessionOptions } from "../../src/agent/types.ts";
import type { FakeApi } from "../support/fake-api.ts";

/**
 * Runs `fn` with KHAELOR_HOME and XDG_CONFIG_HOME in fresh temporary directories (the user's own
 * settings and trusted projects never reach the test); `data` overrides where KHAELOR_HOME points.
 */
export async function inIsolatedHome<T>(fn: (home: { data: string; config: string }) => Promise<T>, data?: string): Promise<T> {
  const before = { KHAELOR_HOME: process.env.KHAELOR_HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };
  const home = mkdtempSync(join(tmpdir(), "khaelor-home-"));
  const dirs = { data: data ?? join(home, "data"), config: join(home, "config") };
  process.env.KHAELOR_HOME = dirs.data;
  process.env.XDG_CONFIG_HOME = dirs.config;
  try {
    return await fn(dirs);
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** A temporary project with a git repository (snapshots for /undo need one). */
export function gitProject(): string {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-proj-"));
  execSync("git init -q .", { cwd: dir });
  return dir;
}

/** Opens a session on `cwd` against the fake API; `opts` adds to or overrides the defaults. */
export function openOn(api: FakeApi, cwd: string, opts: Partial<SessionOptions> = {}): Promise<AgentSession> {
  return openAgentSession({ api: { baseURL: api.url, apiKey: "sk-ant-test" }, cwd, ...opts });
}

export const signal = () => new AbortController().signal;
