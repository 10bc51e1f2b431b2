// What each slash command does, on the session's own API (src/agent/types.ts): a table of handlers,
// one per built-in named in ./slash-commands.ts, each a function of the app's state and actions like
// the key handlers.
import { KNOWN_MODELS, modelInfo, SUGGESTED_MODELS } from "../../model/models.ts";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { exportSession, formatFor } from "../../export/export-session.ts";
import { writeExport } from "../../export/write-export.ts";
import { listSessions } from "../../session/store.ts";
import { renderDiff } from "../views/diff-view.ts";
import { formatCost } from "../../model/format-cost.ts";
import { formatTokens, MODE_LABEL } from "../views/status-line.ts";
import { span } from "../views/text.ts";
import { ui } from "../views/theme.ts";
import type { AgentSession } from "../../agent/types.ts";
import type { AppActions } from "./actions.ts";
import { statusInfo } from "./live-zone.ts";
import { contextReport } from "./context-report.ts";
import { effortCommand } from "./effort-command.ts";
import { showMcp } from "./mcp-panel.ts";
import { showPlugins } from "./plugin-panel.ts";
import { describeSandbox } from "./sandbox-panel.ts";
import { elsewhereLine, sessionChooser } from "./session-picker.ts";
import { openRewind } from "./rewind-chooser.ts";
import { builtinWins, isKnownCommand, looksLikeCommand, parseSlash, SLASH_COMMANDS, type BuiltinCommand, type SlashCommand } from "./slash-commands.ts";
import { nthLatestAnswer } from "../transcript/answers.ts";
import { sessionOf, type AppState } from "./state.ts";
import { homeShort } from "./ask-permission.ts";

const KEYS_HELP = [
  "Enter send · Shift+Enter / Alt+Enter / Ctrl-J newline · Up/Down history · Tab completes",
  "Ctrl-A/E line start/end · Alt-B/F word jumps · Ctrl-K/U/W kill · Ctrl-Y yank · Ctrl-_ undo",
  "! runs a shell command (a cd in it lasts for the next; ! alone: shell mode) · Ctrl-R searches the prompt history",
  "@ mentions a file · / runs a command · Shift+Tab permission mode · Ctrl-T transcript · Ctrl-G edits the prompt in $EDITOR",
  "Esc or Ctrl-C interrupts the agent · idle, Ctrl-C clears the prompt, twice exits · Ctrl-D on an empty prompt exits · Ctrl-Z suspends",
  "Messages sent while the agent works are queued and delivered at its next step.",
];

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s}s ago`;
  if (s < 5400) return `${Math.round(s / 60)}m ago`;
  if (s < 129_600) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86_400)}d ago`;
}

/**
 * A line that is a built-in command runs it (true); an unknown /word comes back to be fixed, never
 * sent to the model by mistake (true); anything else is a message (false), a custom command or
 * skill too: the session expands those (a built-in of the same name wins).
 */
export function ranAsCommand(state: AppState, actions: AppActions & { requestRender(): void }, text: string): boolean {
  const name = looksLikeCommand(text);
  if (name === null) return false;
  const custom = state.session?.slashCommands?.() ?? [];
  if (!builtinWins(name, custom) && custom.some((c) => c.name === name)) return false;
  const cmd = parseSlash(text.trim());
  if (cmd && isKnownCommand(name)) void runSlashCommand(state, actions, cmd.name, cmd.arg);
  else {
    // The text comes back to be fixed (or sent with a leading space).
    state.transcript.notice(`Unknown command /${name}: /help lists them. To send this to the model as a message, start it with a space.`, "warn");
    if (state.composer.isEmpty()) state.composer.setText(text);
    actions.requestRender();
  }
  return true;
}

/** What a command's handler is given: the app's state and actions, the session, and its argument. */
type Call = { state: AppState; actions: AppActions; t: AppState["transcript"]; s: AgentSession; arg: string };
/**
 * A command's handler. True when it changed only what the app shows (a notice, the model) and the
 * app lays out now; false when it asked for something that draws by itself (a chooser, the pager,
 * busy work, a switch, the exit), after which a layout of our own would come too early or too late.
 */
type Handler = (c: Call) => boolean | Promise<boolean>;

/** Each built-in's handler, by the names ./slash-commands.ts lists with their help. */
const HANDLERS: { readonly [K in BuiltinCommand]: Handler } = {
  help: ({ t, s }) => {
    const custom = s.slashCommands?.() ?? [];
    // A built-in the user's own file replaces (/review, /init) is listed once, as theirs.
    const builtins = SLASH_COMMANDS.filter((c) => !custom.some((x) => x.name === c.name) || builtinWins(c.name, custom));
    t.notice(["Commands:", ...builtins.map((c: SlashCommand) => `  /${c.name}${c.args ? ` ${c.args}` : ""} — ${c.help}`), ...customHelp(s), "Keys:", ...KEYS_HELP.map((k) => `  ${k}`)].join("\n"));
    return true;
  },
  hooks: ({ t, s }) => (t.notice(hooksListing(s)), true),
  sandbox: ({ t, s, arg, actions }) => {
    const want = arg.trim();
    if (want !== "on" && want !== "off") return (t.notice(describeSandbox(s.sandbox)), true);
    void s.sandbox.toggle(want === "on").then(() => {
      t.notice(describeSandbox(s.sandbox));
      actions.render();
    });
    return true;
  },
  agents: ({ t, s }) => (t.notice(agentsListing(s)), true),
  exit: async ({ actions }) => (await actions.exit(0), false),
  clear: async ({ actions }) => (await actions.switchSession(null), false),
  plan: ({ actions, t, s, arg }) => {
    if (s.permissionMode() !== "plan") s.setPermissionMode("plan");
    t.notice(`Plan mode: the agent reads and plans, changing nothing but its plan file ${homeShort(s.planFile)}, and presents the plan for your approval. Shift+Tab leaves plan mode.`, "info");
    if (!arg.trim()) return true;
    actions.submit(arg.trim());
    return false;
  },
  transcript: ({ actions }) => (actions.openPager(), false),
  edit: ({ actions }) => (actions.editInEditor(), false),
  keybindings: ({ actions }) => (actions.editKeybindings(), false),
  copy,
  export: exportConversation,
  theme,
  compact: async ({ actions, t, s, arg }) => {
    await actions.runBusy("compact", async (signal) => {
      const ok = await s.compact(arg || undefined, signal);
      if (!ok) t.notice("Nothing to compact yet.", "info");
    });
    return false;
  },
  cost: ({ state, actions, t, s }) => {
    const info = statusInfo(state, actions.now());
    const u = t.usage;
    t.notice(
      [
        `Cost: ${formatCost(info.costUsd)} (${s.model()})`,
        `Tokens: ${formatTokens(u.input)} input, ${formatTokens(u.cacheRead)} cache reads, ${formatTokens(u.cacheWrite)} cache writes, ${formatTokens(u.output)} output`,
        info.cacheHitRate !== null ? `Cache hit rate: ${Math.round(info.cacheHitRate * 100)}%` : "No requests yet.",
      ].join("\n"),
    );
    return true;
  },
  model,
  effort: ({ t, s, arg }) => (effortCommand(t, s, arg), true),
  context: async ({ actions, t, s }) => {
    await actions.runBusy("command", async (signal) => t.notice(contextReport(await s.contextUsage(signal))));
    return false;
  },
  sessions: ({ t, s }) => {
    const list = listSessions(s.cwd);
    if (list.length === 0) t.notice("No sessions in this project yet.");
    else
      t.notice(
        [`Sessions of ${s.cwd} (newest first; /resume <id> switches):`, ...list.slice(0, 20).map((x) => `  ${x.id.slice(0, 8)}  ${ago(Date.now() - x.lastActivity).padEnd(8)} ${plural(x.turns, "turn").padStart(9)}  ${formatCost(x.costUsd).padStart(7)}  ${x.title || "(untitled)"}${x.id === s.sessionId ? "  ← this one" : ""}`)].join("\n"),
      );
    return true;
  },
  resume,
  mcp: ({ state, actions }) => (showMcp(state, actions), false),
  plugin: ({ state, actions }) => (showPlugins(state, actions), false),
  permissions,
  diff,
  init: (c) => promptCommand("init", c),
  review: (c) => promptCommand("review", c),
  rewind: ({ state, actions }) => (openRewind(state, actions), false),
  undo: async ({ actions, t, s }) => {
    await actions.runBusy("command", async () => {
      let r: Awaited<ReturnType<typeof s.snapshots.undo>>;
      try {
        r = await s.snapshots.undo();
      } catch (e) {
        // Snapshots are off (e.g. a big directory outside git): the session says why.
        t.notice(e instanceof Error ? e.message : String(e), "warn");
        return;
      }
      // A restore is an event in the log; the transcript shows it from there.
      if (r === null) t.notice("Nothing to undo: no agent turn has changed files (or every one is undone).");
    });
    return false;
  },
};

/** /init and /review: the session builds the prompt (with the diff, the files found); it runs as a turn. */
async function promptCommand(name: "init" | "review", { actions, t, s, arg }: Call): Promise<boolean> {
  const r = await s.commandPrompt(name, arg);
  if ("message" in r) {
    t.notice(r.message, "warn");
    return true;
  }
  actions.runPrompt(r.prompt, arg ? `/${name} ${arg}` : `/${name}`);
  return false;
}

export async function runSlashCommand(state: AppState, actions: AppActions, name: string, arg: string): Promise<void> {
  const t = state.transcript;
  if (!isKnownCommand(name)) t.notice(`Unknown command /${name}: /help lists them.`, "warn");
  else if (!(await HANDLERS[name]({ state, actions, t, s: sessionOf(state), arg }))) return;
  actions.render();
}

async function copy({ actions, t, arg }: Call): Promise<boolean> {
  const n = arg === "" ? 1 : Number(arg);
  if (!Number.isInteger(n) || n < 1) {
    t.notice(`/copy takes how far back the answer is (1 is the last), not "${arg}".`, "warn");
    return true;
  }
  const answer = nthLatestAnswer(t.entries, n);
  if (answer === null) {
    t.notice(n === 1 ? "No answer to copy yet." : `There are fewer than ${n} answers to copy.`, "warn");
    return true;
  }
  const r = await actions.copyToClipboard(answer);
  const which = n === 1 ? "the last answer" : `answer ${n} from the end`;
  // A notice, not a flash: where the text went is worth keeping, and it is too long for the status line.
  if (r.ok) t.notice(`Copied ${which} (${answer.split("\n").length} lines of markdown) to ${r.where}.`);
  else t.notice(`Could not copy ${which}: ${r.error}.`, "warn");
  return true;
}

/** /export [file]: the session's log as Markdown to the clipboard, or to a file in the format its extension names. */
async function exportConversation({ actions, t, s, arg }: Call): Promise<boolean> {
  const file = arg ? resolve(s.cwd, arg.replace(/^~(?=\/|$)/, homedir())) : null;
  const format = formatFor(file);
  let exported;
  try {
    exported = exportSession(s.logPath, format);
  } catch (e) {
    t.notice(`Could not export: ${e instanceof Error ? e.message : String(e)}`, "error");
    return true;
  }
  const skipped = exported.warnings.length > 0 ? ` ${exported.warnings.length} unreadable line${exported.warnings.length === 1 ? " of the log was" : "s of the log were"} left out.` : "";
  if (file === null) {
    const r = await actions.copyToClipboard(exported.text);
    if (r.ok) t.notice(`Copied the conversation (${exported.text.split("\n").length} lines of markdown) to ${r.where}.${skipped}`);
    else t.notice(`Could not copy the conversation: ${r.error}. /export <file> writes it to a file instead.`, "warn");
    return true;
  }
  const w = writeExport(file, exported.text);
  if (w.ok) t.notice(`Exported the conversation to ${w.path} (${format}).${skipped}`);
  else t.notice(`Could not export: ${w.error} /export without a file copies it to the clipboard.`, "warn");
  return true;
}

async function theme({ actions, t, arg }: Call): Promise<boolean> {
  const order = ["auto", "light", "dark"] as const;
  const choice = arg === "" ? order[(order.indexOf(actions.themeChoice()) + 1) % order.length]! : (order as readonly string[]).includes(arg) ? (arg as (typeof order)[number]) : null;
  if (choice === null) {
    t.notice(`/theme takes auto, dark or light, not "${arg}".`, "warn");
    return true;
  }
  const r = await actions.changeTheme(choice);
  const what = choice === "auto" ? `auto (${r.theme} for this terminal's background)` : choice;
  if (r.error) t.notice(`Theme: ${what}, for this session only: ${r.error}.`, "warn");
  else t.notice(`Theme: ${what}${r.file ? `; saved to ${r.file}` : ""}.`);
  return true;
}

function model({ actions, t, s, arg }: Call): boolean {
  if (arg) {
    if (!modelInfo(arg) && !KNOWN_MODELS.includes(arg)) t.notice(`${arg} is not a model KHAELOR knows: it will be tried as is, with no known price.`, "warn");
    s.setModel(arg);
    return true;
  }
  const names = [...new Set([s.model(), ...SUGGESTED_MODELS])];
  actions.choose(
    "Model (Enter switches, Esc keeps the current one):",
    names.map((n) => ({ label: n, detail: n === s.model() ? "current" : windowOf(n), value: n })),
    (v) => {
      if (v !== s.model()) s.setModel(v);
      else actions.flash(`the model stays ${v}`);
    },
  );
  return false;
}

async function resume({ actions, t, s, arg }: Call): Promise<boolean> {
  if (arg) {
    await actions.switchSession(arg);
    return false;
  }
  const chooser = sessionChooser(s.cwd, {
    leave: "cancels",
    describe: describeSession,
    exclude: s.sessionId,
    skipped: (line) => {
      t.notice(line, "warn");
      actions.render();
    },
  });
  if (chooser.empty) {
    t.notice("No other session in this project to resume. (khaelor sessions --search <text> --all-projects searches every project.)");
    return true;
  }
  actions.choose(
    chooser.title,
    chooser.items,
    (value) => {
      const p = chooser.pick(value);
      if (p?.kind === "here") void actions.switchSession(p.id);
      else if (p) {
        t.notice(elsewhereLine(p));
        actions.render();
      }
    },
    undefined,
    chooser.options,
  );
  return false;
}

function permissions({ actions, t, s }: Call): boolean {
  const rules = s.rules.list();
  const held = s.trust.heldSettings();
  t.notice(
    [
      `Permission mode: ${MODE_LABEL[s.permissionMode()]} (--permission-mode ${s.permissionMode()}; Shift+Tab cycles)`,
      rules.length === 0 ? "No rules: every write and command asks." : "Rules (deny beats ask beats allow, from any scope):",
      ...rules.map((r) => `  ${r.behavior.padEnd(5)} ${r.rule}  (${describeScope(r)})`),
      ...(held.length > 0 ? ["Held back, as this project is not trusted for them (its files may only restrict):", ...held.map((i) => `  ${i.name}  (${i.file}): ${i.command}`)] : []),
    ].join("\n"),
  );
  if (rules.length === 0 && held.length === 0) return true;
  const trustHeld = { label: `Trust the project's ${held.length === 1 ? "setting" : `${held.length} settings`} held back`, detail: "they hold from now on, in later sessions too", value: "trust-held" };
  actions.choose(
    held.length > 0 ? "Remove a rule, or trust what is held back? (Esc changes nothing)" : "Remove a rule? (Enter removes it, also from its file; Esc keeps them all)",
    [...rules.map((r, i) => ({ label: `${r.behavior} ${r.rule}`, detail: describeScope(r), value: String(i) })), ...(held.length > 0 ? [trustHeld] : [])],
    (v) => {
      if (v === "trust-held") {
        s.trust.trustSettings();
        t.notice(`Trusted: ${held.map((i) => i.name).join(", ")}.`);
        return;
      }
      const r = rules[Number(v)];
      if (!r) return;
      const done = s.rules.remove(r);
      if (done.ok) t.notice(`Removed ${r.behavior} rule ${r.rule}${done.file ? ` from ${done.file}` : ""}.`);
      else t.notice(`Could not remove ${r.rule}: ${done.error}`, "error");
    },
  );
  return false;
}

async function diff({ actions, t, s }: Call): Promise<boolean> {
  const off = s.snapshots.off();
  if (off) {
    t.notice(`/diff is off: ${off}`, "warn");
    return true;
  }
  await actions.runBusy("command", async () => {
    const d = await s.snapshots.diff();
    if (d.files.length === 0) {
      t.notice("No changes since the session started.");
      return;
    }
    const patches = splitPatch(d.patch);
    actions.openPager({
      count: () => patches.length + 1,
      text: (i) => (i === 0 ? d.files.map((f) => f.path).join("\n") : (patches[i - 1] ?? "")),
      layout: (i, width) =>
        i === 0
          ? [
              { spans: [span(`Changes since the session started: ${d.files.length} file${d.files.length === 1 ? "" : "s"}`, ui.bold)] },
              ...d.files.map((f) => ({ spans: [span(`  ${f.status.padEnd(9)} ${f.path}`, ui.dim)] })),
            ]
          : [{ spans: [] }, { spans: [span(patchPath(patches[i - 1] ?? ""), ui.accentBold)] }, ...renderDiff(patches[i - 1] ?? "", { width })],
    }, { title: "changes since the session started" });
  });
  return false;
}

/** A session in a chooser: its short id, when it was last used, how long it is. */
export function describeSession(x: { id: string; lastActivity: number; turns: number; newerFormat?: string }): string {
  return `${x.id.slice(0, 8)} · ${ago(Date.now() - x.lastActivity)} · ${plural(x.turns, "turn")}${x.newerFormat ? " · written by a newer KHAELOR" : ""}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function describeScope(r: { scope: string; file?: string }): string {
  const names: Record<string, string> = { user: "user settings", project: "project settings", local: "project-local settings", session: "this session only", cli: "command line" };
  return `${names[r.scope] ?? r.scope}${r.file ? `: ${r.file}` : ""}`;
}

function windowOf(model: string): string {
  const i = modelInfo(model);
  if (!i) return "";
  const n = i.contextWindow;
  // 1M, 1.5M, 200k: as the models are described, not "1000k".
  return n >= 1_000_000 ? `${Number((n / 1_000_000).toFixed(1))}M context` : `${Math.round(n / 1000)}k context`;
}

/** A multi-file patch split per file ("diff --git" headers). */
function splitPatch(patch: string): string[] {
  const parts = patch.split(/^(?=diff --git )/m).filter((p) => p.trim() !== "");
  return parts.length ? parts : [patch];
}

function patchPath(p: string): string {
  const m = /^diff --git a\/(.*?) b\//m.exec(p) ?? /^\+\+\+ (?:b\/)?(.*)$/m.exec(p);
  return m?.[1] ?? "diff";
}

/** /help's part for the project's and user's own commands and skills. */
function customHelp(s: AgentSession): string[] {
  const all = s.slashCommands?.() ?? [];
  const entries = all.filter((c) => !builtinWins(c.name, all));
  if (entries.length === 0) return [];
  return ["Custom commands and skills:", ...entries.map((c) => `  /${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ""} — ${c.description} (${c.kind === "skill" ? "skill" : c.scope}: ${c.file})`)];
}

/** /agents: each agent type the agent tool offers, its model and tools, and where it comes from. */
function agentsListing(s: AgentSession): string {
  const where = (a: ReturnType<AgentSession["agents"]>[number]) => (a.file ? `${a.source}: ${a.file}` : a.source === "session" ? "--agents or the host" : a.source);
  return [
    "Agents (the model delegates to them with the agent tool; add your own in .claude/agents/ or ~/.claude/agents/):",
    ...s.agents().map((a) => `  ${a.name} — ${a.description}${a.model ? ` [model ${a.model}]` : ""}${a.tools ? ` [tools ${a.tools.join(", ")}]` : ""} (${where(a)})`),
  ].join("\n");
}

/** /hooks: each hook by event, its matcher and command, the file it is in, and whether it runs. */
function hooksListing(s: AgentSession): string {
  const list = s.hooks?.() ?? [];
  if (list.length === 0) return "No hooks configured (add \"hooks\" to ~/.config/khaelor/settings.json or .khaelor/settings.json, in Claude Code's format).";
  return [
    "Hooks:",
    ...list.map(({ entry: h, runs }) => `  ${h.event}${h.matcher ? ` [${h.matcher}]` : ""}: ${h.command} (timeout ${h.timeoutS} s) — ${h.file}${runs ? "" : " — not run: the project is not trusted"}`),
  ].join("\n");
}
