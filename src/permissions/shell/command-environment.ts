// What a command's environment and git's config overrides do to it. An assignment in front of a
// command (`GIT_EXTERNAL_DIFF=x git diff`, `env PAGER=x git log`) or a `git -c core.pager=x` can
// make an allowed command run another program or load other code, so an allow rule covers such a
// command only when every variable and key is known to be inert, or when it spells them out.
import type { ShellWord } from "./shell-words.ts";

/** Variables that change no program and load no code: locale, time zone, colours, terminal size, CI flags. */
const INERT = /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLORTERM|CI|DEBUG|TERM|COLUMNS|LINES|NODE_ENV|RUST_BACKTRACE|RUST_LOG|PYTHONUNBUFFERED|PYTHONDONTWRITEBYTECODE|PYTHONIOENCODING|TMPDIR)$/;

/** Variables that name a program to run or change what a process loads or reads as its configuration. */
const CODE = new RegExp(
  "^(" +
    [
      "PATH", "LD_\\w+", "DYLD_\\w+", "BASH_ENV", "ENV", "IFS", "PS4", "PROMPT_COMMAND", "SHELLOPTS", "BASHOPTS", "SHELL", "ZDOTDIR",
      "GIT_\\w+", "PAGER", "\\w+_PAGER", "MANPAGER", "LESSOPEN", "LESSCLOSE", "LESS", "LESSKEY", "EDITOR", "VISUAL", "\\w+_EDITOR", "BROWSER",
      "\\w+_EXTERNAL_DIFF", "\\w+_SSH_COMMAND", "\\w+_SSH", "\\w+_ASKPASS", "\\w+_PROXY_COMMAND",
      "NODE_OPTIONS", "NODE_PATH", "PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME", "PYTHONINSPECT", "RUBYOPT", "RUBYLIB", "PERL5OPT", "PERL5LIB", "PERLLIB",
      "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "DOTNET_STARTUP_HOOKS", "npm_config_\\w+", "NPM_CONFIG_\\w+", "MAKEFLAGS", "MAKEFILES",
      "TAR_OPTIONS", "GREP_OPTIONS", "RIPGREP_CONFIG_PATH", "CC", "CXX", "RUSTC_WRAPPER", "CARGO_\\w+", "GCONV_PATH", "OPENSSL_CONF",
      "HOME", "XDG_CONFIG_HOME", "TERMINFO",
    ].join("|") +
    ")$",
);

export type VarKind = "inert" | "code" | "unknown";

export function varKind(name: string): VarKind {
  return INERT.test(name) ? "inert" : CODE.test(name) ? "code" : "unknown";
}

/** git config keys that change no program: how output looks, who commits. Any other key may name a program (core.pager, diff.external, alias.x=!cmd, core.sshCommand, filters, hooks). */
const INERT_GIT_KEY = /^(color\.[\w.-]+|advice\.\w+|column\.\w+|i18n\.\w+|core\.quotepath|core\.abbrev|core\.autocrlf|user\.(name|email)|init\.defaultbranch|diff\.(noprefix|mnemonicprefix|renames|algorithm|context|indentheuristic)|log\.(date|decorate|abbrevcommit)|pull\.rebase|merge\.conflictstyle|safe\.directory|status\.(short|branch)|blame\.date|format\.pretty)$/i;

export type GitOverride = { text: string; at: number };

/** git's config overrides and program paths before its subcommand that are not known to be inert: `-c k=v`, `--config-env=k=VAR`, `--exec-path=dir`. `at` indexes `argv`. */
export function gitOverrides(argv: ShellWord[]): GitOverride[] {
  if (argv[0]?.text !== "git") return [];
  const out: GitOverride[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as ShellWord;
    const t = w.text;
    if (!t.startsWith("-")) break;
    if (t === "-C" || t === "--git-dir" || t === "--work-tree" || t === "--namespace") {
      i++;
      continue;
    }
    let setting: string | null = null;
    let at = i;
    if (t === "-c" || t === "--config-env") {
      setting = argv[i + 1]?.text ?? "";
      at = ++i;
    } else if (t.startsWith("-c")) setting = t.slice(2);
    else if (t.startsWith("--config-env=")) setting = t.slice(13);
    else if (t.startsWith("--exec-path=")) {
      out.push({ text: t, at });
      continue;
    }
    if (setting === null) continue;
    const key = setting.split("=")[0] ?? "";
    if (w.dynamic || argv[at]?.dynamic || t.startsWith("--config-env") || !INERT_GIT_KEY.test(key)) out.push({ text: `${t.startsWith("--config-env") ? "--config-env " : "-c "}${setting}`, at });
  }
  return out;
}
