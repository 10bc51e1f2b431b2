// What makes a git KHAELOR runs itself unable to run anything a repository names.
//
// A repository's own config (.git/config, anything it includes, a submodule's config) is written
// by whoever made the repository: an archive, a shared folder or a clone of a stranger's work
// carries it. Git runs commands it names as ordinary parts of ordinary commands: `git status`
// starts core.fsmonitor and the clean filters .gitattributes picks; `ls-files` and `check-ignore`
// start the fsmonitor; a diff runs diff.external and textconv drivers; a fetch (a partial clone's
// lazy fetch included) runs core.sshCommand, core.gitProxy and remote.*.uploadpack. KHAELOR runs
// git before the user has said anything (the start-up status), so none of that may happen.
//
// Git reads its config in this order, later winning: system, global (the user's, kept: user.name
// and the like), the repository's, then the command line. So each setting below is given on the
// command line. A few cannot be taken back that way, and are handled otherwise:
// - filter drivers have names of the repository's choosing (`filter.<name>.clean`), and `-c`
//   has no wildcard: for a command that reads work-tree files (status), the names the config
//   defines are listed first and each blanked (`filterOverrides`; a name written into the config
//   between the listing and the status, one process start apart, would escape); the shadow turns
//   filters off in its info/attributes instead, with no such window. A submodule has a config
//   of its own, which no `-c` of ours can list: `status` is told to keep out of submodules, and
//   the shadow repository's add never looks inside one (shadow-repo.ts, skipGitlinks).
// - diff.external: an empty value makes git fail, not skip it; diff commands get --no-ext-diff
//   and --no-textconv (`hardenArgs`), which also cover the drivers .gitattributes picks.
// - core.gitProxy: the first value read wins, so the command line cannot override it; the empty
//   GIT_PROXY_COMMAND, read before any config, does.
// safe.directory is never set: git's refusal of a repository another user owns stays as it is.

/** Each is `-c key=value`, in force for every git KHAELOR runs; why, beside each. */
export const HARDENING_CONFIG: ReadonlyArray<readonly [string, string]> = [
  ["core.fsmonitor", "false"], // a command run on every read of the index
  ["core.hooksPath", "/dev/null"], // no hook of the repository's (post-index-change, reference-transaction, …)
  ["core.pager", "cat"], // with --no-pager and GIT_PAGER: pager.<cmd> as well
  ["core.editor", "false"],
  ["sequence.editor", "false"],
  ["core.askPass", ""], // empty: no askpass program, and SSH_ASKPASS is not consulted either
  ["core.sshCommand", ""],
  ["credential.helper", ""], // an empty value clears the list of helpers
  ["log.showSignature", "false"], // would run gpg.program
  // No transport at all: KHAELOR never fetches, and a repository's protocol.<name>.allow=always
  // would beat protocol.allow alone.
  ["protocol.allow", "never"],
  ...["file", "git", "ssh", "http", "https", "ext"].map((p) => [`protocol.${p}.allow`, "never"] as const),
];

/** Commands that print diffs, and so would run diff.external and textconv. */
const DIFF_COMMANDS = new Set(["diff", "diff-tree", "diff-index", "diff-files", "log", "show", "whatchanged"]);

/**
 * `git <args>` as KHAELOR runs it: no pager, the hardening config (and `extra`, more `-c` pairs),
 * diff commands without external tools. Global options in `args` are `-c k=v` and `-C dir` only.
 */
export function hardenArgs(args: string[], extra: string[] = []): string[] {
  const out = ["--no-pager"];
  for (const [k, v] of HARDENING_CONFIG) out.push("-c", `${k}=${v}`);
  out.push(...extra);
  // the subcommand is the first word that is not a global option (callers may give `-c x=y`)
  let i = 0;
  while (i < args.length && args[i]!.startsWith("-")) i += args[i] === "-c" || args[i] === "-C" ? 2 : 1;
  const sub = args[i];
  if (sub !== undefined && DIFF_COMMANDS.has(sub)) return [...out, ...args.slice(0, i + 1), "--no-ext-diff", "--no-textconv", ...args.slice(i + 1)];
  return [...out, ...args];
}

/**
 * The environment git runs in: the caller's, less every GIT_* variable (a hook or a parent git
 * must not redirect us into another repository, nor bring its own config), with optional locks
 * off (a read never rewrites the user's index) and nothing that could prompt or page.
 */
export function hardenedEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !k.startsWith("GIT_")) env[k] = v;
  }
  return {
    ...env,
    GIT_OPTIONAL_LOCKS: "0",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    GIT_PROXY_COMMAND: "",
    GIT_PROTOCOL_FROM_USER: "0",
    GIT_NO_LAZY_FETCH: "1",
    LC_ALL: "C",
    ...extra,
  };
}

/** Asks git for the filter drivers the config read in this repository defines (includes followed). */
export const LIST_FILTERS = ["config", "--null", "--name-only", "--get-regexp", "^filter\\."];

/**
 * `-c` pairs that blank every driver in `listed` (the output of LIST_FILTERS): no clean, smudge
 * or process command, and not required, so a file that names one is read as it is. Null when a
 * name holds `=`: `-c filter.a=b.clean=` would set another key and leave the driver as it is
 * (GIT_CONFIG_COUNT could carry such a name, but a git older than 2.31 ignores it), so such a
 * repository gets no command that reads its files through filters.
 */
export function filterOverrides(listed: string): string[] | null {
  const names = new Set<string>();
  for (const key of listed.split("\0")) {
    const m = /^filter\.(.+)\.[^.]+$/s.exec(key);
    if (m) names.add(m[1]!);
  }
  const args: string[] = [];
  for (const name of names) {
    if (name.includes("=")) return null;
    args.push("-c", `filter.${name}.clean=`, "-c", `filter.${name}.smudge=`, "-c", `filter.${name}.process=`, "-c", `filter.${name}.required=false`);
  }
  return args;
}
