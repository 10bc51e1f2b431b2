// Every file change a tool makes, with the bytes before and after, so a later undo command can put
// a file back. Undo refuses when the file moved on since (someone else's change must not be lost).
import { unlinkSync } from "node:fs";
import { readRegularFile } from "./safe-read.ts";
import { writeFileAtomic } from "./atomic-write.ts";

export type EditEntry = {
  id: number;
  path: string;
  tool: string;
  toolUseId: string;
  /** null: the tool created the file. */
  before: Uint8Array | null;
  after: Uint8Array;
  at: number;
};

export type UndoResult = { ok: true; entry: EditEntry } | { ok: false; reason: string };

export class EditJournal {
  private readonly list: EditEntry[] = [];
  private nextId = 1;

  record(e: Omit<EditEntry, "id" | "at">): EditEntry {
    const entry = { ...e, id: this.nextId++, at: Date.now() };
    this.list.push(entry);
    return entry;
  }

  entries(): readonly EditEntry[] {
    return this.list;
  }

  /** Revert the most recent change (or the one with `id`), if the file still holds its result. */
  undo(id?: number): UndoResult {
    const idx = id === undefined ? this.list.length - 1 : this.list.findIndex((e) => e.id === id);
    const entry = this.list[idx];
    if (!entry) return { ok: false, reason: "nothing to undo" };
    let current: Uint8Array | null = null;
    try {
      current = readRegularFile(entry.path, { maxBytes: Math.max(entry.after.length, 1) }).bytes;
    } catch {}
    if (!current || Buffer.compare(Buffer.from(current), Buffer.from(entry.after)) !== 0) {
      return { ok: false, reason: `${entry.path} changed after this edit; undo would lose those changes` };
    }
    if (entry.before === null) unlinkSync(entry.path);
    else writeFileAtomic(entry.path, entry.before);
    this.list.splice(idx, 1);
    return { ok: true, entry };
  }
}
