// The one place KHAELOR fetches over git: marketplaces and plugins the user named (a URL,
// owner/repo on GitHub, a local bare repository). It is workspace/git's hardening (no hook,
// fsmonitor, pager, editor, askpass or credential helper a repository names) with the transports a
// clone needs allowed back (file, git, ssh, https; never ext), and no prompt: a repository that
// wants a password fails with git's message instead of waiting for a terminal.
import { HARDENING_CONFIG, hardenedEnv } from "../workspace/git/hardening.ts";

export class GitFetchError extends Error {}

const TRANSPORTS = ["file", "git", "ssh", "https"];

function args(rest: string[]): string[] {
  const out = ["--no-pager"];
  for (const [k, v] of HARDENING_CONFIG) if (!k.startsWith("protocol.")) out.push("-c", `${k}=${v}`);
  out.push("-c", "protocol.allow=never", ...TRANSPORTS.flatMap((p) => ["-c", `protocol.${p}.allow=always`]), "-c", "protocol.ext.allow=never");
  return [...out, ...rest];
}

export async function gitFetchRun(rest: string[], cwd: string): Promise<string> {
  const env = hardenedEnv();
  delete env.GIT_NO_LAZY_FETCH;
  const proc = Bun.spawn(["git", ...args(rest)], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new GitFetchError(`git ${rest[0]} failed: ${err.trim().split("\n").slice(-3).join(" ") || `exit ${code}`}`);
  return out.trim();
}

/** Clones `url` into `dest` (which must not exist), at `ref` when given (a branch, a tag or a commit). */
export async function cloneAt(url: string, dest: string, ref: string | undefined, cwd: string): Promise<string> {
  await gitFetchRun(["clone", "--quiet", "--no-recurse-submodules", "--", url, dest], cwd);
  if (ref) await checkout(dest, ref);
  return gitFetchRun(["rev-parse", "HEAD"], dest);
}

/** Fetches and moves the checkout to `ref` (the remote's branch of that name first), else to the remote's default branch. */
export async function fetchAndMove(dir: string, ref: string | undefined): Promise<string> {
  await gitFetchRun(["fetch", "--quiet", "--tags", "--force", "origin"], dir);
  const target = ref ? ((await revParses(dir, `origin/${ref}`)) ? `origin/${ref}` : ref) : "origin/HEAD";
  await checkout(dir, target);
  return gitFetchRun(["rev-parse", "HEAD"], dir);
}

async function checkout(dir: string, ref: string): Promise<void> {
  if (!(await revParses(dir, `${ref}^{commit}`))) throw new GitFetchError(`no branch, tag or commit ${JSON.stringify(ref)} in the repository`);
  await gitFetchRun(["checkout", "--quiet", "--detach", `${ref}^{commit}`], dir);
}

async function revParses(dir: string, rev: string): Promise<boolean> {
  try {
    await gitFetchRun(["rev-parse", "--verify", "--quiet", rev], dir);
    return true;
  } catch {
    return false;
  }
}

/** A full commit id: a marketplace added at one is pinned there. */
export const isCommitId = (ref: string | undefined): ref is string => ref !== undefined && /^[0-9a-f]{40}$/i.test(ref);
