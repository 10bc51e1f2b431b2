// The hooks one session runs: every user-level hook, and the project's own (.khaelor/settings.json,
// .khaelor/settings.local.json) only where the user trusted them (src/trust). A project hook the
// user was never asked about does not run; the notice says which and how to trust them.
import type { AgentEvent } from "../events/types.ts";
import { recordTrust, skippedMessage, trustState, type TrustItem } from "../trust/project-trust.ts";
import { hookTrustItem, loadHooks, type HookEntry, type HookFile } from "./config.ts";
import { createHookService, type BudgetText, type HookService } from "./hooks.ts";

export type SessionHooksOptions = {
  cwd: string;
  /** The settings files, then the plugins' hooks.json (a plugin's hook runs while its plugin is on). */
  files: HookFile[];
  sessionId: string;
  transcriptPath: string;
  permissionMode: () => string;
  emit: (e: AgentEvent) => void;
  /** --trust-project: the project's hooks run this once. */
  trustProject?: boolean;
  /** Someone can be asked (the app): unasked hooks wait for the question instead of a notice. */
  interactive: boolean;
  /** The host program's own hooks (the Agent SDK's callbacks): they always run, after the files' hooks. */
  host?: HookEntry[];
  /** The tool-output budget for what hooks tell the model (see HookServiceOptions.fit). */
  fit: BudgetText;
};

export type SessionHooks = {
  service: HookService;
  /** Settings problems and skipped project hooks, for the mode to show before the first prompt. */
  notices: string[];
  /** Project hooks not yet answered: the app's trust question lists these. */
  unasked: TrustItem[];
  /** The user answered the trust question: trusted hooks join from the next event on. */
  answer(items: TrustItem[], answer: "trust" | "decline"): void;
  /** Plugins were trusted: their hooks join from the next event on. */
  refresh(): void;
  /** Everything configured, from which file, and whether it runs (for /hooks). */
  listing(): { entry: HookEntry; runs: boolean }[];
};

export function openSessionHooks(opts: SessionHooksOptions): SessionHooks {
  const { entries, problems } = loadHooks(opts.files);
  const notices = [...problems];
  const fromProject = entries.filter((h) => h.scope !== "user" && !h.plugin);
  const items = new Map(fromProject.map((h) => [h, hookTrustItem(h)]));
  const state = trustState(opts.cwd, [...items.values()]);
  const trusted = new Set(opts.trustProject ? [...items.values()].map((i) => i.fingerprint) : state.trusted.map((i) => i.fingerprint));
  const host = opts.host ?? [];
  // A plugin's hooks are asked about with the plugin (src/plugins), not one by one.
  const runs = (h: HookEntry) => (h.plugin ? h.plugin.active() : h.scope === "user" || trusted.has(items.get(h)!.fingerprint));
  const running = () => [...entries.filter(runs), ...host];
  const active: HookEntry[] = running();
  const unasked = opts.trustProject ? [] : state.unasked;
  if (unasked.length > 0 && !opts.interactive) notices.push(skippedMessage(opts.cwd, unasked));
  const service = createHookService({ entries: active, projectDir: opts.cwd, sessionId: opts.sessionId, transcriptPath: opts.transcriptPath, permissionMode: opts.permissionMode, emit: opts.emit, fit: opts.fit });
  return {
    service,
    notices,
    unasked,
    answer(answered, answer) {
      recordTrust(opts.cwd, answered, answer);
      const gone = new Set(answered.map((i) => i.fingerprint));
      unasked.splice(0, unasked.length, ...unasked.filter((i) => !gone.has(i.fingerprint)));
      if (answer === "trust") for (const i of answered) trusted.add(i.fingerprint);
      active.splice(0, active.length, ...running());
    },
    /** Plugins trusted since: their hooks join too. */
    refresh: () => void active.splice(0, active.length, ...running()),
    listing: () => [...entries.map((entry) => ({ entry, runs: runs(entry) })), ...host.map((entry) => ({ entry, runs: true }))],
  };
}
