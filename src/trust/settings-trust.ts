// Settings in a project's own files that would widen what runs unasked (an allow rule, a mode that
// asks less) or pick what the user pays for (a model): like the commands a project defines, each
// holds only once the user trusted it, so a cloned repository cannot grant itself Bash or read
// ~/.ssh with no question. Deny and ask rules are never held: they only restrict.
//
// Each setting is a TrustItem fingerprinted by what it says (not where it is written), so the
// answer is kept with the others in the user's data directory (./project-trust.ts); a rule KHAELOR
// writes into the project for the user ("allow always") is recorded as trusted when written.
import { describeAllowRule } from "../permissions/rules/describe-rule.ts";
import { fingerprintOf, firstSettingsCheck, recordTrust, trustedFingerprints, trustStorePath, type TrustItem } from "./project-trust.ts";

export type ProjectSetting = { file: string } & (
  | { key: "allow"; rule: string }
  | { key: "defaultMode"; mode: string }
  /** permissions.additionalDirectories: the tools use it as the project (reads unasked). */
  | { key: "additionalDirectories"; dir: string }
  | { key: "model"; model: string }
  /** statusLine.command: it runs on every status update, so it is a command the project would run. */
  | { key: "statusLine"; command: string }
  /** One variable of the settings' `env`: every command, hook and server started from then on gets it. */
  | { key: "env"; name: string; value: string }
);

export type SettingsTrust = {
  /** Whether this setting holds: the user trusted it (or --trust-project). */
  widens(s: ProjectSetting): boolean;
  /** KHAELOR wrote it for the user: it holds from now on in this project. */
  written(s: ProjectSetting): void;
  /** Remember the answer about these settings; trusted ones hold from the next check on. */
  answer(items: TrustItem[], answer: "trust" | "decline"): void;
};

/**
 * `current`: the settings the project's files widen now. A project the user had trusted before
 * trust covered settings keeps them as they are (its settings held then, and "nothing may make a
 * trusted project ask more"); what its files add later asks, as a changed command does.
 */
export function openSettingsTrust(opts: { cwd: string; trustProject: boolean; file?: string; current(): ProjectSetting[] }): SettingsTrust {
  const file = opts.file ?? trustStorePath();
  const remember = (items: TrustItem[], answer: "trust" | "decline") => {
    recordTrust(opts.cwd, items, answer, file);
    for (const i of items) if (answer === "trust") trusted.add(i.fingerprint);
    else trusted.delete(i.fingerprint);
  };
  const trusted = trustedFingerprints(opts.cwd, file);
  if (firstSettingsCheck(opts.cwd, file) === "trusted-before") {
    const items = opts.current().map(settingTrustItem).filter((i) => !trusted.has(i.fingerprint));
    if (items.length > 0) remember(items, "trust");
  }
  return {
    widens: (s) => opts.trustProject || trusted.has(settingFingerprint(s)),
    written: (s) => remember([settingTrustItem(s)], "trust"),
    answer: remember,
  };
}

function settingFingerprint(s: ProjectSetting): string {
  return fingerprintOf({ setting: s.key, value: settingValue(s) });
}

function settingValue(s: ProjectSetting): string {
  if (s.key === "env") return `${s.name}=${s.value}`;
  return s.key === "allow" ? s.rule : s.key === "defaultMode" ? s.mode : s.key === "model" ? s.model : s.key === "additionalDirectories" ? s.dir : s.command;
}

/** What the trust question and print mode's notice show for one setting. */
export function settingTrustItem(s: ProjectSetting): TrustItem {
  if (s.key === "env") return { kind: "setting", name: `env ${s.name}=${s.value}`, file: s.file, command: describeSetting(s), fingerprint: settingFingerprint(s) };
  const name = s.key === "allow" ? `permissions.allow ${s.rule}` : s.key === "defaultMode" ? `permissions.defaultMode ${s.mode}` : s.key === "model" ? `model ${s.model}` : s.key === "additionalDirectories" ? `permissions.additionalDirectories ${s.dir}` : `statusLine ${s.command}`;
  return { kind: "setting", name, file: s.file, command: describeSetting(s), fingerprint: settingFingerprint(s) };
}

/** The setting in plain words: what it would let happen without a question; ⚠ before what reaches past the project. */
export function describeSetting(s: ProjectSetting): string {
  if (s.key === "env") return runsCode(s.name) ? `⚠ sets ${s.name} for every command, hook and server KHAELOR starts (it can make them run code of the project's choosing)` : `sets ${s.name} for every command, hook and server KHAELOR starts`;
  if (s.key === "model") return `uses the model ${s.model} (billed to your key)`;
  if (s.key === "statusLine") return `⚠ runs ${s.command} to draw the status line (a command of the project's choosing, on every update)`;
  if (s.key === "additionalDirectories") return `⚠ reads ${s.dir} without asking, as if it were part of this project (outside this project)`;
  if (s.key === "defaultMode") return MODE_WORDS[s.mode] ?? `starts in ${s.mode} mode`;
  const words = describeAllowRule(s.rule);
  return /any shell command|any background process|outside this project/.test(words) ? `⚠ ${words}` : words;
}

// Variables through which a value alone makes a program run other code: a loader, an interpreter's
// start-up file or options, the command git or a shell runs, where commands are looked up.
const RUNS_CODE = [
  /^PATH$/,
  /^(LD|DYLD)_/,
  /^NODE_(OPTIONS|PATH)$/,
  /^(BASH_ENV|ENV|PROMPT_COMMAND|SHELL|SHELLOPTS|BASHOPTS|IFS|CDPATH)$/,
  /^GIT_/,
  /^(PYTHON(PATH|STARTUP|HOME)|PERL5?(LIB|OPT)|RUBY(OPT|LIB)|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|CLASSPATH|GEM_(HOME|PATH)|BUNDLE_GEMFILE)$/,
  /^(EDITOR|VISUAL|PAGER|MANPAGER|BROWSER|SSH_ASKPASS|SUDO_ASKPASS)$/,
  /^(npm|NPM|YARN|PNPM|BUN)_CONFIG_/i,
  /_OPTIONS$/,
];

function runsCode(name: string): boolean {
  return RUNS_CODE.some((re) => re.test(name));
}

const MODE_WORDS: Record<string, string> = {
  acceptEdits: "starts in acceptEdits mode: edits and writes files without asking",
  dontAsk: "starts in dontAsk mode: denies whatever would ask",
};
