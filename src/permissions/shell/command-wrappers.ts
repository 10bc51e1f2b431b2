// Commands that run another command (`timeout 5 npm test`): strip them so rules and the read-only
// set see what actually runs. `sudo`/`doas` are stripped only on request (hardline checks), since a
// rule for `npm test` must not allow `sudo npm test`.
import { basename } from "node:path";
import type { ShellWord } from "./shell-words.ts";

export type Unwrapped = {
  argv: ShellWord[];
  /** Wrapper names removed, in order. */
  wrappers: string[];
  /** Ran through sudo/doas. */
  elevated: boolean;
  /** xargs appends words read from stdin: the real arguments are unknowable. */
  extraArgsFromStdin: boolean;
  /** Environment names set by `env NAME=...` or `sudo NAME=...`. */
  envNames: string[];
  /** A wrapper changed the directory in a way we cannot follow (`env -C`). */
  cwdUnknown: boolean;
};

type Spec = {
  /** Options that take a value as the next word. */
  withValue: Set<string>;
  /** Positional words the wrapper consumes before the command (timeout's duration). */
  positionals?: number;
  /** Accept NAME=value words before the command. */
  assignments?: boolean;
};

const spec = (withValue: string[], extra: Omit<Spec, "withValue"> = {}): Spec => ({ withValue: new Set(withValue), ...extra });

const WRAPPERS: Record<string, Spec> = {
  timeout: spec(["-s", "--signal", "-k", "--kill-after"], { positionals: 1 }),
  time: spec(["-f", "--format", "-o", "--output"]),
  nice: spec(["-n", "--adjustment"]),
  nohup: spec([]),
  env: spec(["-u", "--unset", "-C", "--chdir", "-S", "--split-string"], { assignments: true }),
  command: spec([]),
  builtin: spec([]),
  exec: spec(["-a"]),
  xargs: spec(["-a", "--arg-file", "-d", "--delimiter", "-E", "-e", "-I", "-i", "-L", "-l", "-n", "--max-args", "-P", "--max-procs", "-s", "--max-chars"]),
  stdbuf: spec(["-i", "-o", "-e", "--input", "--output", "--error"]),
  ionice: spec(["-c", "--class", "-n", "--classdata", "-t"]),
  setsid: spec([]),
};
const ELEVATORS: Record<string, Spec> = {
  sudo: spec(["-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from", "-D", "--chdir", "-r", "--role", "-t", "--type", "-T", "--command-timeout", "-U", "--other-user"], { assignments: true }),
  doas: spec(["-u", "-C"]),
  pkexec: spec(["--user"]),
};

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
/** Commands that run another command as someone else or somewhere else, beyond the wrappers above. */
const OTHER_RUNNERS = new Set(["su", "runuser", "chroot", "unshare", "nsenter", "setpriv", "firejail", "strace", "ltrace"]);

/** Whether a command's name (without its directory) only runs the command after it: `sudo`, `env`, `timeout`, `xargs`. */
export function isWrapperName(name: string): boolean {
  return Object.hasOwn(WRAPPERS, name) || Object.hasOwn(ELEVATORS, name) || OTHER_RUNNERS.has(name);
}

export function unwrapCommand(words: ShellWord[], opts: { throughSudo: boolean }): Unwrapped {
  const out: Unwrapped = { argv: words, wrappers: [], elevated: false, extraArgsFromStdin: false, envNames: [], cwdUnknown: false };
  for (let guard = 0; guard < 16; guard++) {
    const head = out.argv[0];
    if (!head || head.dynamic) return out;
    // Through sudo (the checks that refuse), `/usr/bin/env` is env; never when allowing, since
    // `./timeout` may be a script of the project's own.
    const name = opts.throughSudo ? basename(head.text) : head.text;
    const elevator = Object.hasOwn(ELEVATORS, name) ? ELEVATORS[name] : undefined;
    const s = (Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined) ?? (opts.throughSudo ? elevator : undefined);
    if (!s) return out;
    // `command -v x` looks a command up without running it
    if (name === "command" && out.argv[1] && /^-[vV]$/.test(out.argv[1].text)) return out;
    let i = 1;
    let positionals = s.positionals ?? 0;
    for (; i < out.argv.length; i++) {
      const w = out.argv[i] as ShellWord;
      const t = w.text;
      if (t === "--") {
        i++;
        break;
      }
      if (t.startsWith("-") && t.length > 1 && !w.dynamic) {
        const flag = t.includes("=") ? t.slice(0, t.indexOf("=")) : t;
        if ((name === "env" && (flag === "-C" || flag === "--chdir")) || (elevator && (flag === "-D" || flag === "--chdir"))) out.cwdUnknown = true;
        if (name === "env" && (flag === "-S" || flag === "--split-string")) return out; // a whole command line in one word
        if (s.withValue.has(flag) && !t.includes("=")) i++;
        else if (name === "nice" && /^-\d+$/.test(t)) continue;
        // short options bundled with a value (`-n10`, `-uroot`) need no extra word
        continue;
      }
      if (s.assignments && ASSIGNMENT.test(t)) {
        out.envNames.push(t.slice(0, t.indexOf("=")));
        continue;
      }
      if (positionals > 0) {
        positionals--;
        continue;
      }
      break;
    }
    const rest = out.argv.slice(i);
    if (rest.length === 0 && name !== "xargs") return out; // `env`, `sudo -i`: the wrapper is the command
    out.wrappers.push(name);
    if (elevator) out.elevated = true;
    if (name === "xargs") out.extraArgsFromStdin = true;
    // `xargs` with no command runs echo
    out.argv = rest.length > 0 ? rest : [{ text: "echo", pattern: "echo", dynamic: false, glob: false }];
  }
  return out;
}
