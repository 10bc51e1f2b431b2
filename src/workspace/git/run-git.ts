// Every git KHAELOR runs itself goes through here (snapshots, baselines, the start-up status, the
// permission checks' ls-files, the status line's branch), hardened by hardening.ts so that a
// repository's config can run nothing. The model's own `git` in bash is not ours: it runs as the
// user's would, behind the permission gate.
import { filterOverrides, hardenArgs, hardenedEnv, LIST_FILTERS } from "./hardening.ts";

export class GitError extends Error {
  constructor(
    message: string,
    readonly args: string[],
    readonly stderr: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export type GitRun = {
  cwd: string;
  env?: Record<string, string>;
  stdin?: string | Uint8Array;
  allowExit?: number[];
  /**
   * Set for a command that reads work-tree files through the filters .gitattributes picks, in
   * the user's repository (`status`): every filter driver its config defines is blanked first,
   * at the cost of one `git config` more. The shadow repository needs none: its info/attributes
   * turns filters off.
   */
  blankFilters?: boolean;
};

export async function git(args: string[], opts: GitRun): Promise<string> {
  const bytes = await gitBytes(args, opts);
  return new TextDecoder().decode(bytes);
}

export async function gitBytes(args: string[], opts: GitRun): Promise<Uint8Array> {
  const filters = opts.blankFilters ? filterOverrides(await git(LIST_FILTERS, { cwd: opts.cwd, ...(opts.env ? { env: opts.env } : {}), allowExit: [1] })) : [];
  if (filters === null) throw new GitError(`git ${args[0]} not run: a filter driver's name holds "=", which git cannot be told to switch off`, args, "", -1);
  const proc = Bun.spawn(["git", ...hardenArgs(args, filters)], {
    cwd: opts.cwd,
    env: hardenedEnv(opts.env),
    stdin: opts.stdin === undefined ? "ignore" : typeof opts.stdin === "string" ? new TextEncoder().encode(opts.stdin) : opts.stdin,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).bytes(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0 && !(opts.allowExit ?? []).includes(code)) {
    throw new GitError(`git ${args[0]} failed (exit ${code}): ${err.trim() || "no message"}`, args, err, code);
  }
  return out;
}

/** Like git(), but null instead of an error (for questions such as "is this a repository?"). */
export async function gitMaybe(args: string[], opts: GitRun): Promise<string | null> {
  try {
    return (await git(args, opts)).trim();
  } catch {
    return null;
  }
}

export type GitSyncRun = { cwd: string; stdin?: string; timeoutMs: number; allowExit?: number[]; blankFilters?: boolean };

/**
 * git run synchronously, for callers that cannot wait (a permission decision, the system prompt
 * built once at start): its output, or null when it failed, timed out or git is missing.
 */
export function gitSync(args: string[], opts: GitSyncRun): string | null {
  let filters: string[] | null = [];
  if (opts.blankFilters) {
    // exit 1: no filter is defined
    const listed = spawnSync(LIST_FILTERS, [], { cwd: opts.cwd, timeoutMs: opts.timeoutMs }, [0, 1]);
    filters = listed === null ? null : filterOverrides(listed);
    if (filters === null) return null;
  }
  return spawnSync(args, filters, opts, [0, ...(opts.allowExit ?? [])]);
}

function spawnSync(args: string[], extra: string[], opts: { cwd: string; stdin?: string; timeoutMs: number }, ok: number[]): string | null {
  try {
    const r = Bun.spawnSync(["git", ...hardenArgs(args, extra)], {
      cwd: opts.cwd,
      env: hardenedEnv(),
      stdin: opts.stdin === undefined ? "ignore" : new TextEncoder().encode(opts.stdin),
      stdout: "pipe",
      stderr: "ignore",
      timeout: opts.timeoutMs,
    });
    return r.exitCode !== null && ok.includes(r.exitCode) ? r.stdout.toString() : null;
  } catch {
    return null;
  }
}
