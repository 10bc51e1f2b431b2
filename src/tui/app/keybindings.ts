// Claude Code's keybindings.json, read: `{bindings: [{context, bindings: {"ctrl+e": "chat:externalEditor",
// "ctrl+u": null}}]}`. A key is "ctrl+x" style, a chord is keys separated by spaces ("ctrl+x ctrl+e"),
// null unbinds. What this file knows is Claude Code's (2.1's default table and its documented
// contexts); what KHAELOR runs of it is the actions each of its key handlers implements
// (composer-keys.ts, permission-keys.ts, pager-keys.ts, history-search.ts). Nothing is dropped
// silently: a context or action KHAELOR lacks, an unknown one, or a key it cannot read is a problem
// naming the file, the key and the action.
import { z } from "zod";

/** The contexts KHAELOR has a place for; the others are Claude Code's screens KHAELOR does not have. */
export const KEY_CONTEXTS = ["Global", "Chat", "Autocomplete", "Confirmation", "Transcript", "HistorySearch"] as const;
export type KeyContext = (typeof KEY_CONTEXTS)[number];

/** Claude Code's other contexts (its documentation's table): reported as not available, not as unknown. */
const OTHER_CC_CONTEXTS = ["Settings", "Tabs", "Help", "Task", "ThemePicker", "Attachments", "Footer", "MessageSelector", "DiffDialog", "ModelPicker", "Select", "Plugin", "Scroll", "Doctor"];

/** The actions KHAELOR runs, by the context whose handler runs them. */
export const KHAELOR_ACTIONS = {
  /** The composer: Chat's and Global's actions both (KHAELOR's Global keys are the composer's). */
  Chat: [
    "app:interrupt",
    "app:exit",
    "app:toggleTranscript",
    "history:search",
    "history:previous",
    "history:next",
    "chat:cancel",
    "chat:clearInput",
    "chat:cycleMode",
    "chat:modelPicker",
    "chat:submit",
    "chat:newline",
    "chat:undo",
    "chat:externalEditor",
    "chat:imagePaste",
  ],
  Autocomplete: ["autocomplete:accept", "autocomplete:dismiss", "autocomplete:previous", "autocomplete:next"],
  Confirmation: ["confirm:yes", "confirm:no"],
  Transcript: ["transcript:exit", "scroll:lineUp", "scroll:lineDown", "scroll:pageUp", "scroll:pageDown", "scroll:fullPageUp", "scroll:fullPageDown", "scroll:halfPageUp", "scroll:halfPageDown", "scroll:top", "scroll:bottom"],
  HistorySearch: ["historySearch:next", "historySearch:accept", "historySearch:cancel"],
} as const;

export type ChatAction = (typeof KHAELOR_ACTIONS.Chat)[number];
export type AutocompleteAction = (typeof KHAELOR_ACTIONS.Autocomplete)[number];
export type ConfirmAction = (typeof KHAELOR_ACTIONS.Confirmation)[number];
export type TranscriptAction = (typeof KHAELOR_ACTIONS.Transcript)[number];
export type HistorySearchAction = (typeof KHAELOR_ACTIONS.HistorySearch)[number];
export type KeyAction = ChatAction | AutocompleteAction | ConfirmAction | TranscriptAction | HistorySearchAction;

/** Where each context's actions are run (Global's are the composer's). */
const RUNS_IN: Record<KeyContext, keyof typeof KHAELOR_ACTIONS> = { Global: "Chat", Chat: "Chat", Autocomplete: "Autocomplete", Confirmation: "Confirmation", Transcript: "Transcript", HistorySearch: "HistorySearch" };

/** Claude Code's actions KHAELOR does not have (2.1's default table and documentation): "not available", not "unknown". */
const CC_ONLY_ACTIONS = new Set([
  "app:toggleTodos",
  "app:toggleBrief",
  "app:openArtifact",
  "chat:clearScreen",
  "chat:killAgents",
  "chat:fastMode",
  "chat:thinkingToggle",
  "chat:workflowKeywordToggle",
  "chat:stash",
  "voice:pushToTalk",
  "confirm:previous",
  "confirm:next",
  "confirm:cycleMode",
  "confirm:nextField",
  "confirm:toggle",
  "confirm:toggleExplanation",
  "permission:toggleDebug",
  "transcript:toggleShowAll",
  "historySearch:execute",
  "historySearch:cycleScope",
  "task:background",
  "theme:toggleSyntaxHighlighting",
  "theme:editCustom",
  "select:previous",
  "select:next",
  "select:accept",
  "settings:search",
  "settings:retry",
  "settings:close",
  "settings:periodDay",
  "settings:periodWeek",
  "settings:sortByTokens",
  "doctor:fix",
  "help:dismiss",
  "attachments:next",
  "attachments:previous",
  "attachments:remove",
  "attachments:exit",
  "selection:copy",
  "selection:extendLeft",
  "selection:extendRight",
  "selection:extendUp",
  "selection:extendDown",
  "selection:extendLineStart",
  "selection:extendLineEnd",
]);

const MODIFIERS: Record<string, "C" | "M" | "S"> = { ctrl: "C", control: "C", alt: "M", meta: "M", opt: "M", option: "M", cmd: "M", command: "M", super: "M", win: "M", shift: "S" };
const NAMED = new Set(["escape", "enter", "tab", "space", "backspace", "delete", "insert", "up", "down", "left", "right", "home", "end", "pageup", "pagedown", ...Array.from({ length: 12 }, (_, i) => `f${i + 1}`)]);
const ALIASES: Record<string, string> = { esc: "escape", return: "enter", del: "delete", pgup: "pageup", pgdown: "pagedown", pgdn: "pagedown" };

/**
 * One key as the app's key tables spell it ("C-e", "S-tab", "M-p"), or null when it cannot be read.
 * A printable character without ctrl or alt is the character typed ("y", "G" for shift+g), as the
 * terminal sends it: that is how the composer receives it.
 */
export function keyId(spec: string): string | null {
  const parts = spec.trim().toLowerCase().split("+");
  // "ctrl++" is ctrl and the plus key.
  if (parts.length > 1 && parts[parts.length - 1] === "" && parts[parts.length - 2] === "") parts.splice(-2, 2, "+");
  const name0 = parts.pop();
  if (!name0) return null;
  const mods = new Set<string>();
  for (const p of parts) {
    const m = MODIFIERS[p];
    if (!m) return null;
    mods.add(m);
  }
  const name = ALIASES[name0] ?? name0;
  if (name.length === 1 || [...name].length === 1) {
    if (!mods.has("C") && !mods.has("M")) return mods.has("S") ? name.toUpperCase() : name;
  } else if (!NAMED.has(name)) return null;
  if (name === "space" && mods.size === 0) return "space";
  return `${mods.has("C") ? "C-" : ""}${mods.has("M") ? "M-" : ""}${mods.has("S") ? "S-" : ""}${name}`;
}

/** A chord as its keys' ids joined by spaces, or null when any of its keys cannot be read. */
export function chordId(spec: string): string | null {
  const keys = spec.trim().split(/\s+/);
  if (keys.length === 0 || keys[0] === "") return null;
  const ids = keys.map(keyId);
  return ids.some((k) => k === null) ? null : ids.join(" ");
}

/** One binding: in `context`, `chord` runs `action` (null: the key does nothing there). */
export type Binding = { context: KeyContext; chord: string; action: KeyAction | null; file: string; key: string };

/**
 * KHAELOR's own bindings in the files' terms, read before the files (which may rebind or unbind
 * them): Claude Code's readline chord for the external editor, beside KHAELOR's Ctrl-G.
 */
export const DEFAULT_BINDINGS: readonly Binding[] = [{ context: "Chat", chord: "C-x C-e", action: "chat:externalEditor", file: "KHAELOR's defaults", key: "ctrl+x ctrl+e" }];

const FileShape = z.looseObject({
  bindings: z.array(z.looseObject({ context: z.string(), bindings: z.record(z.string(), z.union([z.string(), z.null()])) })),
});

/** The bindings of one file's text, and what in it cannot be used (each naming the file, the key and the action). */
export function parseKeybindings(text: string, file: string): { bindings: Binding[]; problems: string[] } {
  const problems: string[] = [];
  let json: unknown;
  try {
    json = JSON.parse(stripJsonComments(text));
  } catch (e) {
    return { bindings: [], problems: [`${file}: not valid JSON (${(e as Error).message}); none of its keybindings are used`] };
  }
  const shape = FileShape.safeParse(json);
  if (!shape.success) return { bindings: [], problems: [`${file}: expected {"bindings": [{"context": "Chat", "bindings": {"ctrl+e": "chat:externalEditor"}}]} (${shape.error.issues[0]?.path.join(".") || "top"}: ${shape.error.issues[0]?.message}); none of its keybindings are used`] };
  const bindings: Binding[] = [];
  for (const block of shape.data.bindings) {
    const context = block.context;
    if (!(KEY_CONTEXTS as readonly string[]).includes(context)) {
      const keys = Object.keys(block.bindings).join(", ");
      problems.push(
        OTHER_CC_CONTEXTS.includes(context)
          ? `${file}: the ${context} context is not available in KHAELOR; its keys (${keys}) are not used`
          : `${file}: ${JSON.stringify(context)} is not a context (KHAELOR has ${KEY_CONTEXTS.join(", ")}); its keys (${keys}) are not used`,
      );
      continue;
    }
    for (const [key, action] of Object.entries(block.bindings)) {
      const chord = chordId(key);
      if (chord === null) {
        problems.push(`${file}: cannot read the key ${JSON.stringify(key)} (${context}${action ? `, ${action}` : ""}): write it as ctrl+e, shift+tab, meta+p, escape or a chord such as "ctrl+x ctrl+e"`);
        continue;
      }
      const why = action === null ? null : actionProblem(context as KeyContext, action);
      if (why) {
        problems.push(`${file}: ${key} → ${action} (${context}): ${why}`);
        continue;
      }
      bindings.push({ context: context as KeyContext, chord, action: action as KeyAction | null, file, key });
    }
  }
  return { bindings, problems };
}

function actionProblem(context: KeyContext, action: string): string | null {
  const runs = RUNS_IN[context];
  if ((KHAELOR_ACTIONS[runs] as readonly string[]).includes(action)) return null;
  const elsewhere = (Object.keys(KHAELOR_ACTIONS) as Array<keyof typeof KHAELOR_ACTIONS>).find((c) => (KHAELOR_ACTIONS[c] as readonly string[]).includes(action));
  if (elsewhere) return `not available in the ${context} context in KHAELOR (it is ${elsewhere === "Chat" ? "a Chat or Global" : `an ${elsewhere}`} action)`;
  if (CC_ONLY_ACTIONS.has(action)) return "not available in KHAELOR; the key is not bound";
  return "unknown action; the key is not bound";
}

/**
 * JSON with comments (// and /* *\/) and trailing commas, as the skeleton /keybindings writes and
 * as editors keep JSONC: one scan that knows where strings are, so a value holding `//` (a URL) or
 * `,]` is left exactly as written. A comma is held until the next token shows whether it trails.
 */
export function stripJsonComments(text: string): string {
  let out = "";
  // A comma and the blank space after it, not yet written: dropped if a ] or } comes next.
  let held = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "/" && text[i + 1] === "/") {
      while (i + 1 < text.length && text[i + 1] !== "\n") i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
      if (held) held += " ";
      else out += " ";
      continue;
    }
    if (held && /\s/.test(c)) {
      held += c;
      continue;
    }
    if (held) {
      out += c === "]" || c === "}" ? held.slice(1) : held;
      held = "";
    }
    if (c === ",") {
      held = ",";
      continue;
    }
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
      continue;
    }
    out += c;
  }
  return out + held;
}
