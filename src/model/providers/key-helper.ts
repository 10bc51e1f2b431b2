// apiKeyHelper (the user's own settings only): a command whose stdout is the key, for gateways that
// hand out short-lived keys. Run at start, again once its key is older than the TTL
// (CLAUDE_CODE_API_KEY_HELPER_TTL_MS, Claude Code's default of 5 minutes) and when the server
// refuses the key. Its stderr is read and dropped: a helper may print tokens there, and nothing of
// it may reach the session log or the screen. Its errors name the program, never its arguments.
import { ModelError } from "../types.ts";
import { ProviderConfigError, type Env } from "./types.ts";

export const DEFAULT_KEY_TTL_MS = 5 * 60_000;

export type KeyHelper = {
  /** The cached key, or a fresh one when it is older than the TTL or `renew` is set. */
  key(renew?: boolean): Promise<string>;
  /** "apiKeyHelper (get-key)": for descriptions and errors. */
  label: string;
};

export type KeyHelperOptions = {
  cwd: string;
  env: Env;
  ttlMs?: number;
  /** How long a run may take. */
  timeoutMs?: number;
  now?: () => number;
  /** How errors name it; "apiKeyHelper (program)" by default. */
  label?: string;
};

/** The program a helper runs, without its arguments (one may be a secret). */
export function helperProgram(command: string): string {
  const first = command.trim().split(/\s+/)[0] ?? "";
  return first.replace(/^.*\//, "") || "?";
}

export function keyHelperTtl(env: Env): number {
  const raw = env.CLAUDE_CODE_API_KEY_HELPER_TTL_MS?.trim();
  if (!raw) return DEFAULT_KEY_TTL_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0) throw new ProviderConfigError(`CLAUDE_CODE_API_KEY_HELPER_TTL_MS must be a whole number of milliseconds (it is "${raw.slice(0, 40)}")`);
  return ms;
}

export function keyHelper(command: string, opts: KeyHelperOptions): KeyHelper {
  const label = opts.label ?? `apiKeyHelper (${helperProgram(command)})`;
  const ttlMs = opts.ttlMs ?? keyHelperTtl(opts.env);
  const now = opts.now ?? Date.now;
  let cached: { key: string; at: number } | null = null;
  let running: Promise<string> | null = null;

  const run = async (): Promise<string> => {
    const proc = Bun.spawn(["/bin/sh", "-c", command], { cwd: opts.cwd, env: { ...opts.env } as Record<string, string>, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    const timer = setTimeout(() => proc.kill("SIGKILL"), opts.timeoutMs ?? 30_000);
    try {
      const [out, , code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      if (proc.signalCode === "SIGKILL") throw fail(`${label} did not finish within ${Math.round((opts.timeoutMs ?? 30_000) / 1000)} s`);
      if (code !== 0) throw fail(`${label} exited with code ${code}; run it yourself to see why (its output is not shown: it may hold secrets)`);
      const key = out.trim();
      if (key === "") throw fail(`${label} printed nothing: it must print the key on stdout`);
      if (/[\r\n]/.test(key)) throw fail(`${label} printed more than one line: it must print only the key`);
      return key;
    } catch (e) {
      if (e instanceof ModelError) throw e;
      throw fail(`${label} could not run (${e instanceof Error ? e.message : String(e)}); check apiKeyHelper in your settings`);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    label,
    async key(renew = false) {
      if (cached && !renew && now() - cached.at < ttlMs) return cached.key;
      running ??= run().finally(() => (running = null));
      const key = await running;
      cached = { key, at: now() };
      return key;
    },
  };
}

/** Fatal for the request; at start the session reports it as a setting to fix. */
function fail(message: string): ModelError {
  return new ModelError("fatal", message);
}
