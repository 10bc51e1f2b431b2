// `git diff-tree -r -z --raw` output as plain data.

export const ZERO_ID = "0000000000000000000000000000000000000000";
/** git's well-known empty tree; diff-tree accepts it without the object existing. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export type TreeChange = {
  path: string;
  status: "added" | "deleted" | "modified" | "type-changed";
  /** Before and after: blob id and mode, or null when the path did not exist on that side. */
  before: { id: string; mode: string } | null;
  after: { id: string; mode: string } | null;
};

export function parseRawDiff(out: string): TreeChange[] {
  const fields = out.split("\0");
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i] as string;
    const path = fields[i + 1] as string;
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([AMDT])/.exec(meta);
    if (!m) continue;
    const [, oldMode, newMode, oldId, newId, code] = m as unknown as [string, string, string, string, string, string];
    const before = /^0+$/.test(oldMode) ? null : { id: oldId, mode: oldMode };
    const after = /^0+$/.test(newMode) ? null : { id: newId, mode: newMode };
    const status = code === "A" ? "added" : code === "D" ? "deleted" : code === "T" ? "type-changed" : "modified";
    changes.push({ path, status, before, after });
  }
  return changes;
}
