// Settings in a project's own files that would widen what runs unasked (an allow rule, a mode that
// asks less) or pick what the user pays for (a model): like the commands a project defines, each
// holds only once the user trusted it, so a cloned repository cannot grant itself Bash or read
// ~/.ssh with no question. Deny and ask rules are never held: they only restrict.
//
// Each setting is a TrustItem fingerprinted by what it says (not where it is written), so the
// answer is kept with the others in the user's data directory (./project-trust.ts); a rule KHAELOR
// writes into the project for the user ("allow always") is recorded as trusted when written.
import { describeAllowRule } from "../permissions/rules/describe-rule.ts";
import { fingerprintOf, recordTrust, trustedFingerprints, trustStorePath, type TrustItem } from "./project-trust.ts";

export type ProjectSetting = { file: string } & ({ key: "allow"; rule: string } | { key: "defaultMode"; mode: string } | { key: "model"; model: string });

export type SettingsTrust = {
  /** Whether this setting holds: the user trusted it (or --trust-project). */
  widens(s: ProjectSetting): boolean;
  /** KHAELOR wrote it for the user: it holds from now on in this project. */
  written(s: ProjectSetting): void;
  /** Remember the answer about these settings; trusted ones hold from the next check on. */
  answer(items: TrustItem[], answer: "trust" | "decline"): void;
};

export function openSettingsTrust(opts: { cwd: string; trustProject: boolean; file?: string }): SettingsTrust {
  const file = opts.file ?? trustStorePath();
  const trusted = trustedFingerprints(opts.cwd, file);
  const remember = (items: TrustItem[], answer: "trust" | "decline") => {
    recordTrust(opts.cwd, items, answer, file);
    for (const i of items) if (answer === "trust") trusted.add(i.fingerprint);
    else trusted.delete(i.fingerprint);
  };
  return {
    widens: (s) => opts.trustProject || trusted.has(settingFingerprint(s)),
    written: (s) => remember([settingTrustItem(s)], "trust"),
    answer: remember,
  };
}

function settingFingerprint(s: ProjectSetting): string {
  return fingerprintOf({ setting: s.key, value: s.key === "allow" ? s.rule : s.key === "defaultMode" ? s.mode : s.model });
}

/** What the trust question and print mode's notice show for one setting. */
export function settingTrustItem(s: ProjectSetting): TrustItem {
  const name = s.key === "allow" ? `permissions.allow ${s.rule}` : s.key === "defaultMode" ? `permissions.defaultMode ${s.mode}` : `model ${s.model}`;
  return { kind: "setting", name, file: s.file, command: describeSetting(s), fingerprint: settingFingerprint(s) };
}

/** The setting in plain words: what it would let happen without a question. */
export function describeSetting(s: ProjectSetting): string {
  if (s.key === "model") return `uses the model ${s.model} (billed to your key)`;
  if (s.key === "defaultMode") return MODE_WORDS[s.mode] ?? `starts in ${s.mode} mode`;
  return describeAllowRule(s.rule);
}

const MODE_WORDS: Record<string, string> = {
  acceptEdits: "starts in acceptEdits mode: edits and writes files without asking",
  dontAsk: "starts in dontAsk mode: denies whatever would ask",
};
