// Running git for snapshots and baselines. The environment is scrubbed of the caller's GIT_*
// variables (a hook or a parent git must not redirect us into the user's repository) and optional
// locks are off, so even read-only commands never rewrite the user's index.

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

export type GitRun = { cwd: string; env?: Record<string, string>; stdin?: string | Uint8Array; allowExit?: number[] };

function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("GIT_")) env[k] = v;
  }
  return { ...env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", ...extra };
}

export async function git(args: string[], opts: GitRun): Promise<string> {
  const bytes = await gitBytes(args, opts);
  return new TextDecoder().decode(bytes);
}

export async function gitBytes(args: string[], opts: GitRun): Promise<Uint8Array> {
  const proc = Bun.spawn(["git", ...args], {
    cwd: opts.cwd,
    env: baseEnv(opts.env),
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
