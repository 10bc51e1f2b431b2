// Where the keybindings come from: Claude Code's ~/.claude/keybindings.json ($CLAUDE_CONFIG_DIR, as
// its settings are found) and KHAELOR's own beside its settings, read in that order so KHAELOR's
// file wins where both bind a key. Changes apply at once: the folders are watched (fs.watch), and a
// file read again only counts when its text changed. /keybindings opens KHAELOR's file, written
// first with a commented skeleton when there is none (never Claude Code's: KHAELOR does not write
// its files).
import { existsSync, mkdirSync, watch, writeFileSync, type FSWatcher } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { claudeConfigDir, userConfigDir } from "../../permissions/index.ts";
import { FileReadError, LIMITS, readTextIfExists } from "../../workspace/safe-read.ts";
import { DEFAULT_BINDINGS, KEY_CONTEXTS, parseKeybindings, type Binding } from "./keybindings.ts";
import { buildKeymap } from "./keymap.ts";
import type { AppState } from "./state.ts";

export type KeybindingsSource = {
  /** Claude Code's file, then KHAELOR's. */
  files: readonly string[];
  /** KHAELOR's own file: /keybindings opens it. */
  own: string;
  /** The bindings of every file, in order, what cannot be used in them, and their text (to tell a change). */
  read(): { bindings: Binding[]; problems: string[]; text: string };
  /** Calls `onChange` when something in the files' folders changes; returns the stop. */
  watch(onChange: () => void): () => void;
};

export function keybindingsSource(home: string = homedir(), env: NodeJS.ProcessEnv = process.env): KeybindingsSource {
  const files = [join(claudeConfigDir(home, env), "keybindings.json"), join(userConfigDir(home), "keybindings.json")];
  return {
    files,
    own: files[1]!,
    read() {
      const bindings: Binding[] = [];
      const problems: string[] = [];
      let all = "";
      for (const file of files) {
        let text: string | null;
        try {
          text = readTextIfExists(file, LIMITS.smallConfig);
        } catch (e) {
          problems.push(`${file}: cannot read: ${e instanceof FileReadError ? e.reason : (e as Error).message}; its keybindings are not used`);
          continue;
        }
        all += `\0${text ?? ""}`;
        if (text === null) continue;
        const r = parseKeybindings(text, file);
        bindings.push(...r.bindings);
        problems.push(...r.problems);
      }
      return { bindings, problems, text: all };
    },
    watch(onChange) {
      let watchers: FSWatcher[] = [];
      const close = () => void watchers.splice(0).forEach((w) => w.close());
      const arm = () => {
        close();
        for (const dir of new Set(files.map(dirname))) {
          const at = nearestExisting(dir);
          try {
            if (at === dir) watchers.push(watch(dir, { persistent: false }, (_event, name) => (name === null || name === "keybindings.json" ? onChange() : undefined)));
            // The folder is not there yet (no ~/.claude before Claude Code ran): its nearest
            // ancestor is watched for the next folder on the way, and the watches are set again.
            else if (at !== null) {
              const next = relative(at, dir).split(sep)[0];
              watchers.push(watch(at, { persistent: false }, (_event, name) => (name === null || name === next ? (arm(), onChange()) : undefined)));
            }
          } catch {
            // Not watchable (gone meanwhile, no permission): its file is read on the next start or after /keybindings.
          }
        }
      };
      arm();
      return close;
    },
  };
}

/** The folder itself or its nearest ancestor that exists (null: none, which cannot happen below /). */
function nearestExisting(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(d)) return d;
    if (dirname(d) === d) return null;
  }
}

/** What is in force now, from the files; the problems to say, and whether the text changed since `lastText`. */
export function applyKeybindings(state: AppState, src: KeybindingsSource, lastText: string | null): { problems: string[]; text: string; changed: boolean; count: number } {
  const r = src.read();
  if (r.text === lastText) return { problems: [], text: r.text, changed: false, count: r.bindings.length };
  const pending = state.keys?.pending ?? "";
  const now = state.keys?.now;
  state.keys = { map: buildKeymap([...DEFAULT_BINDINGS, ...r.bindings]), pending, ...(now ? { now } : {}) };
  return { problems: r.problems, text: r.text, changed: true, count: r.bindings.length };
}

/** KHAELOR's file, written with a commented skeleton when it does not exist yet; the path. */
export function ensureKeybindingsFile(src: KeybindingsSource): string {
  const file = src.own;
  if (readTextIfExists(file, LIMITS.smallConfig) !== null) return file;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, skeleton(src.files[0]!), { flag: "wx", mode: 0o600 });
  return file;
}

function skeleton(claudeFile: string): string {
  return `{
  "$schema": "https://www.schemastore.org/claude-code-keybindings.json",
  // KHAELOR's keybindings, in Claude Code's format. ${claudeFile} (Claude Code's) is read first;
  // where both bind a key, this file wins. Changes apply as soon as the file is saved.
  // Contexts: ${KEY_CONTEXTS.join(", ")}. A chord is keys separated by a space; null unbinds a key.
  "bindings": [
    // { "context": "Chat", "bindings": { "ctrl+e": "chat:externalEditor", "ctrl+u": null } }
  ]
}
`;
}

/**
 * The app's keybindings over its life: read before the first key, their problems said once the
 * transcript is there, read again when a file changes (a notice says what is in force) and after
 * /keybindings' editor exits.
 */
export class AppKeybindings {
  private text: string | null = null;
  private unsaid: string[];
  private stopWatch: (() => void) | null = null;

  constructor(
    private readonly state: AppState,
    private readonly src: KeybindingsSource,
    private readonly render: () => void,
  ) {
    this.unsaid = this.load().problems;
  }

  private load(): ReturnType<typeof applyKeybindings> {
    const r = applyKeybindings(this.state, this.src, this.text);
    this.text = r.text;
    return r;
  }

  /** A session's transcript is there: what could not be used is said in it, and the files are watched from now on. */
  attached(): void {
    for (const p of this.unsaid.splice(0)) this.state.transcript.notice(p, "warn");
    this.stopWatch ??= this.src.watch(() => this.reload(false));
  }

  reload(edited: boolean): void {
    const r = this.load();
    if (!r.changed) {
      if (edited) this.state.transcript.notice(`Keybindings unchanged (${this.src.own}).`, "info");
      return;
    }
    this.state.transcript.notice(`Keybindings: ${r.count === 0 ? "none bound, KHAELOR's own keys" : `${r.count} bound`} (from ${this.src.files.join(" and ")}).`, "info");
    for (const p of r.problems) this.state.transcript.notice(p, "warn");
    this.render();
  }

  /** /keybindings: KHAELOR's file (a skeleton first, if there is none) in the user's editor, then read again. */
  edit(lend: (file: string, done: (error: string | null) => void) => void): void {
    let file: string;
    try {
      file = ensureKeybindingsFile(this.src);
    } catch (e) {
      this.state.transcript.notice(`cannot create ${this.src.own}: ${(e as Error).message}`, "warn");
      this.render();
      return;
    }
    // The folder may be new: watched from now on.
    this.stopWatch?.();
    this.stopWatch = this.src.watch(() => this.reload(false));
    lend(file, (error) => {
      if (error) this.state.transcript.notice(`${error}; ${file} is as the editor left it.`, "warn");
      this.reload(true);
    });
  }

  close(): void {
    this.stopWatch?.();
    this.stopWatch = null;
  }
}
