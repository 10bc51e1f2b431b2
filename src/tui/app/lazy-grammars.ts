// Grammars load when something needs them, not at startup. Loading all 13 took 0.7–1 s of CPU
// and, on two cores, held the prompt back by as much (the session's own bash parser waited behind
// them). Highlighting stays synchronous and deterministic for layout (see
// src/tui/markdown/index.ts): a language is either loaded or shown plain, and a settled block keeps
// the rows it settled with. So the app makes sure a block is not laid out for good before its
// grammar had the chance to load:
// - a streamed answer is fed to the markdown stream only up to a code fence whose grammar is
//   still loading (the fence and what follows wait a moment, then appear highlighted);
// - an entry that needs a grammar (a finished answer with code, an edit's diff) is not committed
//   to history while that grammar loads.
// Waiting is bounded: a grammar that takes longer than HOLD_MS (or fails) is simply not waited for.
import { extname } from "node:path";
import { preloadHighlighting } from "../markdown/index.ts";
import { isHighlightLoaded } from "../markdown/highlight/highlighter.ts";
import { grammarForInfo } from "../markdown/highlight/queries.ts";
import type { GrammarName } from "../../assets/tree-sitter.ts";
import type { Entry } from "../transcript/entry.ts";

const HOLD_MS = 1500;

/** A fence opener, also inside list items and block quotes: its info word is the language. */
const FENCE = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*(?:`{3,}|~{3,})[ \t]*([^\s`]+)/;

export class LazyGrammars {
  /** Grammars asked for and not yet done loading, with when they were first asked for. */
  private loading = new Map<GrammarName, number>();
  private readonly now: () => number;

  constructor(
    /** Called when a grammar finished loading (or stopped being waited for): lay out again. */
    private readonly onChange: () => void,
    now?: () => number,
  ) {
    this.now = now ?? Date.now;
  }

  /** True while `info` (a fence info string or file extension) names a grammar still loading; starts the load. */
  waitingFor(info: string): boolean {
    const g = grammarForInfo(info);
    if (!g || isHighlightLoaded(g)) return false;
    const since = this.loading.get(g);
    if (since === undefined) {
      this.loading.set(g, this.now());
      const timer = setTimeout(() => this.onChange(), HOLD_MS + 10);
      void preloadHighlighting([g]).then(() => {
        clearTimeout(timer);
        this.onChange();
      });
      return true;
    }
    // A load that failed leaves the grammar unloaded; the time limit stops the wait either way.
    return this.now() - since < HOLD_MS;
  }

  /**
   * How much of a streamed answer may go to the markdown stream: everything, or up to the start of
   * the first complete fence line (at or after the line holding `fed`) whose grammar is loading.
   */
  feedLimit(text: string, fed: number): number {
    let start = fed > 0 ? text.lastIndexOf("\n", fed - 1) + 1 : 0;
    while (start < text.length) {
      const nl = text.indexOf("\n", start);
      if (nl < 0) break; // a partial line cannot settle a block yet
      const m = FENCE.exec(text.slice(start, Math.min(nl, start + 200)));
      if (m?.[1] && this.waitingFor(m[1])) return Math.max(fed, start);
      start = nl + 1;
    }
    return text.length;
  }

  /** True while an entry's code (fences of an answer, an edit's file type) waits for its grammar. */
  holds(e: Entry): boolean {
    if (e.kind === "assistant") return this.feedLimit(e.text, 0) < e.text.length;
    if (e.kind === "tool" && e.view.diff) {
      const path = e.view.path ?? pathOf(e.input);
      return path !== null && this.waitingFor(extname(path).slice(1));
    }
    return false;
  }
}

function pathOf(input: unknown): string | null {
  const p = (input as { file_path?: unknown } | null)?.file_path;
  return typeof p === "string" ? p : null;
}
