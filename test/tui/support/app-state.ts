// An AppState built from the real parts (transcript, composer, prompt history, file finder, history
// commit), a session that answers the few calls key handling and commands make, and AppActions
// that record what was asked of them: for driving handlers as functions of (state, actions, event).
import type { AgentSession } from "../../../src/agent/types.ts";
import type { PermissionMode } from "../../../src/events/types.ts";
import type { AppActions, ChooserItem } from "../../../src/tui/app/actions.ts";
import type { InputEvent } from "../../../src/tui/app/app-input.ts";
import { composerInput } from "../../../src/tui/app/composer-keys.ts";
import { FileFinder } from "../../../src/tui/app/file-finder.ts";
import { PromptHistory } from "../../../src/tui/app/history.ts";
import { initialState } from "../../../src/tui/app/initial-state.ts";
import type { AppState } from "../../../src/tui/app/state.ts";

/** The few session calls key handling and commands make, over a mode, a model and a steering queue of its own. */
export function fakeSession(queuedSteering: string[] = []): AgentSession {
  let mode: PermissionMode = "default";
  let model = "claude-sonnet-5-5";
  const s: Partial<AgentSession> = {
    cwd: "/nonexistent",
    sessionId: "0123456789abcdef",
    permissionMode: () => mode,
    setPermissionMode: (m: PermissionMode) => void (mode = m),
    model: () => model,
    setModel: (m: string) => void (model = m),
    takeQueuedSteering: () => queuedSteering.splice(0),
    rules: { list: () => [], remove: () => ({ ok: false, error: "no rules in this test" }) },
    trust: { pending: () => [], answer: async () => {}, heldSettings: () => [], trustSettings: () => {} },
    snapshots: { off: () => "snapshots are off in this test", undo: async () => null, diff: async () => ({ patch: "", files: [] }) },
    rewind: { points: () => [], to: async () => { throw new Error("no rewind in this test"); } },
    agents: () => [
      { name: "Explore", description: "fast, read-only", source: "built-in", model: "haiku", tools: ["Read", "Grep"] },
      { name: "reviewer", description: "Reviews code", source: "project", file: "/p/.claude/agents/reviewer.md" },
    ],
  };
  return s as AgentSession;
}

export type Recorded = {
  submitted: string[];
  interrupts: number;
  exits: number[];
  flashes: string[];
  pagers: Array<{ title?: string; ofPrompt?: boolean } | undefined>;
  closedPagers: number;
  choosers: Array<{ title: string; items: ChooserItem[]; onPick: (value: string) => void }>;
  switches: Array<string | null>;
  busyRuns: string[];
  redraws: number;
  /** Layouts asked for now (render()). */
  renders: number;
  edits: number;
  copied: string[];
  /** The images each submit carried (an empty list for none). */
  submittedImages: string[][];
  clipboardPastes: number;
  /** Built-in commands' prompts run as turns (runPrompt). */
  prompts: string[];
  /** Built-in commands run by a key (runCommand). */
  commands: string[];
};

export function fakeActions(clock: { t: number }): AppActions & Recorded {
  return {
    submitted: [],
    interrupts: 0,
    exits: [],
    flashes: [],
    pagers: [],
    closedPagers: 0,
    choosers: [],
    switches: [],
    busyRuns: [],
    redraws: 0,
    renders: 0,
    edits: 0,
    copied: [],
    submittedImages: [],
    clipboardPastes: 0,
    prompts: [],
    commands: [],
    now: () => clock.t,
    submit(t, images) { this.submitted.push(t); this.submittedImages.push((images ?? []).map((i) => i.name)); },
    pastedImages: () => null,
    pasteClipboardImage() { this.clipboardPastes++; },
    runPrompt(t) { this.prompts.push(t); },
    runCommand(name) { this.commands.push(name); },
    interrupt() { this.interrupts++; },
    async exit(code) { this.exits.push(code); },
    flash(t) { this.flashes.push(t); },
    openPager(_source, opts) { this.pagers.push(opts); },
    closePager() { this.closedPagers++; },
    choose(title: string, items: ChooserItem[], onPick: (value: string) => void) { this.choosers.push({ title, items, onPick }); },
    async runBusy(kind, work) {
      this.busyRuns.push(kind);
      await work(new AbortController().signal);
    },
    async switchSession(resume) { this.switches.push(resume); },
    async forkFrom(id) { this.switches.push(`fork:${id}`); return true; },
    render() { this.renders++; },
    redraw() { this.redraws++; },
    editInEditor() { this.edits++; },
    editKeybindings() {},
    async copyToClipboard(t) { this.copied.push(t); return { ok: true, where: "a test clipboard" }; },
    async changeTheme(choice) { return { theme: choice === "light" ? "light" : "dark", choice, file: null }; },
    themeChoice() { return "auto"; },
  };
}

export function makeState(over: Partial<AppState> = {}): AppState {
  const finder = new FileFinder("/nonexistent");
  finder.setFiles(["src/app.ts", "src/screen/zone.ts", "README.md"]);
  const empty = initialState({ cols: 80, history: new PromptHistory(null, ["first prompt", "second prompt"]), finder, links: false });
  return { ...empty, session: fakeSession(), ready: true, ...over };
}

export function setup(over: Partial<AppState> = {}) {
  const clock = { t: 10_000 };
  const state = makeState(over);
  const actions = fakeActions(clock);
  const press = (...evs: InputEvent[]) => {
    for (const ev of evs) composerInput(state, actions, ev);
  };
  return { clock, state, actions, press };
}

