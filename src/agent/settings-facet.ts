// The session's view of the settings a project's files would widen (src/trust/settings-trust.ts):
// which are held back now, the notice for a mode with nobody to ask, and the answer to the
// trust question, after which the engine reloads and a trusted mode or model takes effect.
import type { PermissionEngine } from "../permissions/index.ts";
import { settingTrustItem, type ProjectSetting, type SettingsTrust } from "../trust/settings-trust.ts";
import { trustState, type TrustItem } from "../trust/project-trust.ts";
import type { ProjectModel, ProjectStatusLine, StatusLineConfig } from "./config.ts";
import { applyEnv, type ProjectEnvVar } from "./settings-env.ts";

export type SettingsFacet = {
  /** Held settings never asked about: the app's trust question lists these. */
  pending(): TrustItem[];
  answer(answer: "trust" | "decline"): void;
  /** Every setting held back now, asked about or not (for /permissions). */
  held(): TrustItem[];
  /** Trust every held setting (the user chose to in /permissions). */
  trustHeld(): void;
  /** For a mode without the trust question: what is ignored and how to trust it. */
  notices: string[];
  /** The status-line command in force: a trusted project's, else the user's own (null: none). */
  statusLine(): (StatusLineConfig & { file: string }) | null;
};

export type SettingsFacetOptions = {
  cwd: string;
  engine: PermissionEngine;
  trust: SettingsTrust;
  projectModel: ProjectModel | undefined;
  projectStatusLine: ProjectStatusLine | undefined;
  /** The project's `env` variables (those trusted at open already applied). */
  projectEnv: ProjectEnvVar[];
  /** The user's own statusLine (their settings file), if any. */
  userStatusLine: (StatusLineConfig & { file: string }) | null;
  /** The app asks the trust question; other modes are told in a notice. */
  trustQuestion: boolean;
  /** The user trusted them: the settings' mode and model, where this run's flags did not pick one. */
  onTrusted(settings: { mode: ReturnType<PermissionEngine["settingsMode"]>; model: string | undefined }): void;
};

export function openSettingsFacet(o: SettingsFacetOptions): SettingsFacet {
  const modelSetting: ProjectSetting | null = o.projectModel ? { key: "model", model: o.projectModel.model, file: o.projectModel.file } : null;
  const statusSetting: ProjectSetting | null = o.projectStatusLine ? { key: "statusLine", command: o.projectStatusLine.statusLine.command, file: o.projectStatusLine.file } : null;
  const heldOwn: ProjectSetting[] = [];
  if (modelSetting) heldOwn.push(modelSetting);
  if (statusSetting) heldOwn.push(statusSetting);
  const envSettings = o.projectEnv.map((v): ProjectSetting & { key: "env" } => ({ key: "env", name: v.name, value: v.value, file: v.file }));
  heldOwn.push(...envSettings);
  const held = (): ProjectSetting[] => [...o.engine.held(), ...heldOwn.filter((x) => !o.trust.widens(x))];
  const items = held().map(settingTrustItem);
  const state = trustState(o.cwd, items);
  const unasked = [...state.unasked];
  const notices: string[] = [];
  if (!o.trustQuestion && unasked.length > 0) notices.push(ignoredMessage(o.cwd, unasked));
  if (!o.trustQuestion && state.declined.length > 0)
    notices.push(`ignoring ${count(state.declined.length)} from this project's files that you chose not to trust (${state.declined.map((i) => i.name).join(", ")})`);
  const takeEffect = () => {
    o.engine.reload();
    // What the session starts from now on (commands, hooks, servers, the status line) gets them.
    applyEnv(Object.fromEntries(envSettings.filter((s) => o.trust.widens(s)).map((s) => [s.name, s.value])));
    o.onTrusted({ mode: o.engine.settingsMode(), model: modelSetting && o.trust.widens(modelSetting) ? modelSetting.model : undefined });
  };
  return {
    pending: () => (o.trustQuestion ? [...unasked] : []),
    answer(answer) {
      const answered = unasked.splice(0);
      if (answered.length === 0) return;
      o.trust.answer(answered, answer);
      if (answer === "trust") takeEffect();
    },
    held: () => held().map(settingTrustItem),
    trustHeld() {
      const items = held().map(settingTrustItem);
      if (items.length === 0) return;
      unasked.splice(0);
      o.trust.answer(items, "trust");
      takeEffect();
    },
    notices,
    statusLine: () => (o.projectStatusLine && statusSetting && o.trust.widens(statusSetting) ? { ...o.projectStatusLine.statusLine, file: o.projectStatusLine.file } : o.userStatusLine),
  };
}

function count(n: number): string {
  return n === 1 ? "a setting" : `${n} settings`;
}

function ignoredMessage(cwd: string, items: TrustItem[]): string {
  return [
    `ignoring ${count(items.length)} from this project's files, as ${cwd} is not trusted (a project's files may only restrict until you trust it):`,
    ...items.map((i) => `  ${i.name} (${i.file}): ${i.command}`),
    `  To trust ${items.length === 1 ? "it" : "them"}: open khaelor here once and answer the trust question, or pass --trust-project to this run.`,
  ].join("\n");
}
