// @file mentions: the project's files (ripgrep's own list, so .gitignore is honoured) filtered by
// a fuzzy query and ranked by match quality and by how recently each file was used in this session
// (mentioned by the user, or read or edited by a tool). The list is loaded once, in the background,
// the first time the user types "@".
import { ripgrepPath } from "../../assets/embedded.ts";

export type FileMatch = { path: string; score: number; positions: number[] };

/** Files listed at most; a monorepo's millionth file is not worth the memory. */
const MAX_FILES = 200_000;

export class FileFinder {
  private files: string[] | null = null;
  private loading: Promise<void> | null = null;
  private readonly used = new Map<string, number>();
  private useSeq = 0;

  constructor(
    private readonly root: string,
    private readonly onLoaded: () => void = () => {},
  ) {}

  /** Starts loading the list (idempotent). Resolves when it is known. */
  load(): Promise<void> {
    this.loading ??= listFiles(this.root).then((f) => {
      this.files = f;
      this.onLoaded();
    });
    return this.loading;
  }

  /** For tests and callers that already know the files. */
  setFiles(files: string[]): void {
    this.files = files;
  }

  get ready(): boolean {
    return this.files !== null;
  }

  /** Marks a path as just used: it ranks above equally good matches. */
  touch(path: string): void {
    this.used.set(path, ++this.useSeq);
  }

  search(query: string, limit = 8): FileMatch[] {
    const files = this.files ?? [];
    const out: FileMatch[] = [];
    for (const path of files) {
      const m = fuzzyMatch(query, path);
      if (!m) continue;
      const recency = this.used.get(path);
      // Recency outweighs a slightly better match, but not a much better one.
      const bonus = recency === undefined ? 0 : 30 + Math.max(0, 20 - (this.useSeq - recency));
      out.push({ path, score: m.score + bonus, positions: m.positions });
    }
    out.sort((a, b) => b.score - a.score || a.path.length - b.path.length || (a.path < b.path ? -1 : 1));
    return out.slice(0, limit);
  }
}

async function listFiles(root: string): Promise<string[]> {
  try {
    const proc = Bun.spawn([ripgrepPath(), "--files", "--hidden", "--glob", "!.git"], { cwd: root, stdout: "pipe", stderr: "ignore", stdin: "ignore" });
    const text = await new Response(proc.stdout).text();
    await proc.exited;
    const files = text.split("\n").filter((l) => l !== "");
    return files.length > MAX_FILES ? files.slice(0, MAX_FILES) : files;
  } catch {
    return [];
  }
}

/**
 * Subsequence match, case-insensitive. Scores favour consecutive characters, matches at the start
 * of a path segment or word, and matches in the file name over the directories.
 */
export function fuzzyMatch(query: string, path: string): { score: number; positions: number[] } | null {
  if (query === "") return { score: 0, positions: [] };
  const q = query.toLowerCase();
  const p = path.toLowerCase();
  const positions: number[] = [];
  let qi = 0;
  // Greedy from the right end of the file name backwards would be better for ties; a forward scan
  // that prefers boundary positions is simple and good enough for a picker of eight entries.
  for (let i = 0; i < p.length && qi < q.length; i++) {
    if (p[i] === q[qi]) {
      positions.push(i);
      qi++;
    }
  }
  if (qi < q.length) return null;
  const nameStart = path.lastIndexOf("/") + 1;
  let score = 0;
  let prev = -2;
  for (const i of positions) {
    score += 1;
    if (i === prev + 1) score += 5;
    const before = path[i - 1];
    if (i === 0 || before === "/" || before === "-" || before === "_" || before === "." || before === " ") score += 4;
    if (i >= nameStart) score += 2;
    prev = i;
  }
  if (p.slice(nameStart).startsWith(q)) score += 15;
  if (p.includes(q)) score += 10;
  score -= Math.floor(path.length / 20);
  return { score, positions };
}

/** The "@query" being typed at the cursor, if any: its start index and the query. */
export function mentionAt(text: string, cursor: number): { start: number; query: string } | null {
  let i = cursor;
  while (i > 0 && !/\s/.test(text[i - 1] ?? "")) i--;
  if (text[i] !== "@") return null;
  const query = text.slice(i + 1, cursor);
  if (/[\s]/.test(query)) return null;
  return { start: i, query };
}
