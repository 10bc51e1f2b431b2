// Prompt history per project, persisted under KHAELOR's data directory
// ($KHAELOR_HOME/history/<project-slug>.jsonl, one JSON string per line, newest last), and the
// Up/Down walk over it. The walk keeps the draft the user was typing, so going back down past the
// newest entry gives it back unchanged.
import { appendFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { dataRoot, projectSlug } from "../../session/paths.ts";
import { LIMITS, readRegularText } from "../../workspace/safe-read.ts";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../../platform/private-files.ts";
import { redactText } from "../../session/redact.ts";

/** Entries kept; the file is rewritten down to this when it grows past twice as many. */
export const HISTORY_LIMIT = 10_000;

export function historyPath(cwd: string, env: Record<string, string | undefined> = process.env): string {
  return join(dataRoot(env), "history", `${projectSlug(cwd)}.jsonl`);
}

export class PromptHistory {
  private entries: string[];
  /** entries.length means "the draft" (not walking). */
  private index: number;
  private draft = "";

  constructor(
    private readonly file: string | null,
    entries?: string[],
  ) {
    this.entries = entries ?? (file ? loadHistory(file) : []);
    this.index = this.entries.length;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Up at the top edge: the previous entry, or null at the oldest. */
  prev(current: string): string | null {
    if (this.index === 0) return null;
    if (this.index === this.entries.length) this.draft = current;
    this.index--;
    return this.entries[this.index] ?? null;
  }

  /** Down at the bottom edge: the next entry, the draft past the newest, null when not walking. */
  next(): string | null {
    if (this.index >= this.entries.length) return null;
    this.index++;
    return this.index === this.entries.length ? this.draft : (this.entries[this.index] ?? "");
  }

  /**
   * For Ctrl-R: every prompt, newest first, this project's before the other projects' (theirs read
   * once, on the first search that gets past this project's; the newest file first). No repeats.
   */
  searchList(): Array<{ text: string; here: boolean }> {
    const out: Array<{ text: string; here: boolean }> = [];
    const seen = new Set<string>();
    const add = (text: string, here: boolean) => {
      if (seen.has(text)) return;
      seen.add(text);
      out.push({ text, here });
    };
    for (let i = this.entries.length - 1; i >= 0; i--) add(this.entries[i]!, true);
    for (const text of this.otherProjects()) add(text, false);
    return out;
  }

  private others: string[] | null = null;

  /** The other projects' prompts, newest first (files by modification time, lines from the end). */
  private otherProjects(): string[] {
    if (this.others) return this.others;
    this.others = [];
    if (!this.file) return this.others;
    const dir = dirname(this.file);
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith(".jsonl") && n !== basename(this.file!));
    } catch {
      return this.others;
    }
    const files = names.flatMap((n) => {
      try {
        return [{ path: join(dir, n), mtime: statSync(join(dir, n)).mtimeMs }];
      } catch {
        return [];
      }
    });
    files.sort((a, b) => b.mtime - a.mtime);
    for (const f of files) this.others.push(...loadHistory(f.path).reverse());
    return this.others;
  }

  resetWalk(): void {
    this.index = this.entries.length;
    this.draft = "";
  }

  /** Records a sent prompt (not repeated back to back) and appends it to the file. */
  add(text: string): void {
    this.resetWalk();
    if (!text.trim() || this.entries[this.entries.length - 1] === text) return;
    this.entries.push(text);
    this.index = this.entries.length;
    if (!this.file) return;
    try {
      ensurePrivateDir(dirname(this.file));
      // A typed secret is kept as the session log keeps it: redacted (and the file is the user's alone).
      appendFileSync(this.file, JSON.stringify(redactText(text)) + "\n", { mode: PRIVATE_FILE_MODE });
      if (this.entries.length > HISTORY_LIMIT * 2) {
        this.entries = this.entries.slice(-HISTORY_LIMIT);
        this.index = this.entries.length;
        writeFileSync(this.file, this.entries.map((e) => JSON.stringify(redactText(e))).join("\n") + "\n", { mode: PRIVATE_FILE_MODE });
      }
    } catch {
      // History is a convenience: a read-only data directory must not stop the session.
    }
  }
}

/** Reads a history file; unreadable lines (a torn last write) are skipped. */
export function loadHistory(file: string): string[] {
  let raw: string;
  try {
    raw = readRegularText(file, LIMITS.history);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const line of raw.split("\n")) {
    if (!line) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (typeof v === "string") out.push(v);
    } catch {
      // skip
    }
  }
  return out.length > HISTORY_LIMIT ? out.slice(-HISTORY_LIMIT) : out;
}
