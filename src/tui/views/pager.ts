// The transcript pager: the whole session on the alternate screen, virtualized. Only entries that
// come into view are laid out; layouts are cached per width (a few hundred entries, least recently
// used out); heights are kept per width in a Fenwick tree, so "row N of the transcript" and "which
// entry holds row N" are O(log n) even with 10,000 entries. Entries never laid out at a width count
// with an estimate from their text, corrected the first time they are shown. The view is anchored
// to (entry, row within entry), so a corrected estimate never makes the page jump.
import type { Row, Span } from "../render/style.ts";
import { clipSpans, displayWidth, span, rowText } from "./text.ts";
import { ui } from "./theme.ts";

export type PagerSource = {
  count(): number;
  /** Rows of entry i at this width (including its leading gap row). Called only for visible entries. */
  layout(i: number, width: number): Row[];
  /** Plain text of entry i, for estimates and search. */
  text(i: number): string;
};

const CACHE_ENTRIES = 400;

/** Fenwick (binary indexed) tree over entry heights. */
class HeightTree {
  private tree: Float64Array;
  readonly heights: Float64Array;
  constructor(readonly n: number) {
    this.tree = new Float64Array(n + 1);
    this.heights = new Float64Array(n);
  }
  static from(values: number[]): HeightTree {
    const t = new HeightTree(values.length);
    for (let i = 0; i < values.length; i++) {
      t.heights[i] = values[i] ?? 0;
      t.tree[i + 1] = values[i] ?? 0;
    }
    for (let i = 1; i <= t.n; i++) {
      const j = i + (i & -i);
      if (j <= t.n) t.tree[j] = (t.tree[j] ?? 0) + (t.tree[i] ?? 0);
    }
    return t;
  }
  set(i: number, h: number): void {
    const d = h - (this.heights[i] ?? 0);
    if (d === 0) return;
    this.heights[i] = h;
    for (let j = i + 1; j <= this.n; j += j & -j) this.tree[j] = (this.tree[j] ?? 0) + d;
  }
  /** Sum of heights of entries [0, i). */
  prefix(i: number): number {
    let s = 0;
    for (let j = i; j > 0; j -= j & -j) s += this.tree[j] ?? 0;
    return s;
  }
  total(): number {
    return this.prefix(this.n);
  }
  /** The entry holding row `row` (0-based) and the row's offset in it. */
  find(row: number): { index: number; offset: number } {
    let pos = 0;
    let rem = row;
    let step = 1;
    while (step * 2 <= this.n) step *= 2;
    for (; step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.n && (this.tree[next] ?? 0) <= rem) {
        pos = next;
        rem -= this.tree[next] ?? 0;
      }
    }
    return { index: Math.min(pos, this.n - 1), offset: rem };
  }
}

type WidthState = { tree: HeightTree; known: Uint8Array; count: number };

export type PagerSearch = { query: string; hits: number[]; current: number; editing: boolean };

export class TranscriptPager {
  private widths = new Map<number, WidthState>();
  private cache = new Map<string, Row[]>();
  /** Top of the view: row `offset` of entry `index`. */
  private anchor = { index: 0, offset: 0 };
  search: PagerSearch | null = null;
  /** The row (in the entry being shown) of the current match, for highlighting. */
  private matchRow: { index: number; offset: number } | null = null;
  /** Where show() left the view: if the view is elsewhere now, the user moved it, and n/N search from there. */
  private shownAt: { index: number; offset: number } | null = null;
  message: string | null = null;

  constructor(
    private readonly source: PagerSource,
    public width: number,
    public height: number,
    /** Named in the status bar: what this pager shows. */
    private readonly title = "transcript",
  ) {}

  /** Rows the content gets (the last screen row is the pager's own status bar). */
  private get view(): number {
    return Math.max(1, this.height - 1);
  }

  resize(width: number, height: number): void {
    this.width = width;
    this.height = height;
    this.clampAnchor();
  }

  /** The transcript grew (new entries while the pager is open). */
  refresh(): void {
    const s = this.widths.get(this.width);
    if (s && s.count !== this.source.count()) this.widths.delete(this.width);
    // The last entry may still be changing (streaming): never trust its cached layout.
    const last = this.source.count() - 1;
    if (last >= 0) this.cache.delete(`${this.width}:${last}`);
    this.state().known[last] = 0;
  }

  private state(): WidthState {
    let s = this.widths.get(this.width);
    const n = this.source.count();
    if (!s || s.count !== n) {
      const estimates: number[] = [];
      for (let i = 0; i < n; i++) estimates.push(this.estimate(i));
      s = { tree: HeightTree.from(estimates), known: new Uint8Array(n), count: n };
      // Entries already laid out at this width keep their exact heights.
      for (const [key, rows] of this.cache) {
        const [w, idx] = key.split(":").map(Number) as [number, number];
        if (w === this.width && idx < n) {
          s.tree.set(idx, rows.length);
          s.known[idx] = 1;
        }
      }
      this.widths.set(this.width, s);
    }
    return s;
  }

  private estimate(i: number): number {
    const text = this.source.text(i);
    let rows = 1;
    let lineLen = 0;
    for (let k = 0; k < text.length; k++) {
      if (text.charCodeAt(k) === 10) {
        rows += 1 + Math.floor(lineLen / this.width);
        lineLen = 0;
      } else lineLen++;
    }
    return rows + Math.floor(lineLen / this.width) + 1;
  }

  rows(i: number): Row[] {
    const key = `${this.width}:${i}`;
    let r = this.cache.get(key);
    if (r) {
      this.cache.delete(key);
      this.cache.set(key, r);
      return r;
    }
    r = this.source.layout(i, this.width);
    this.cache.set(key, r);
    if (this.cache.size > CACHE_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    const s = this.state();
    s.tree.set(i, r.length);
    s.known[i] = 1;
    return r;
  }

  /** Total rows (exact for entries seen at this width, estimated for the rest). */
  totalRows(): number {
    return this.state().tree.total();
  }

  topRow(): number {
    return this.state().tree.prefix(this.anchor.index) + this.anchor.offset;
  }

  scrollBy(delta: number): void {
    let { index, offset } = this.anchor;
    const n = this.source.count();
    if (n === 0) return;
    offset += delta;
    while (offset < 0 && index > 0) {
      index--;
      offset += this.rows(index).length;
    }
    if (offset < 0) offset = 0;
    while (index < n - 1 && offset >= this.rows(index).length) {
      offset -= this.rows(index).length;
      index++;
    }
    this.anchor = { index, offset: Math.max(0, Math.min(offset, this.rows(index).length - 1)) };
    this.clampAnchor();
  }

  pageUp(): void {
    this.scrollBy(-(this.view - 1));
  }

  pageDown(): void {
    this.scrollBy(this.view - 1);
  }

  home(): void {
    this.anchor = { index: 0, offset: 0 };
  }

  /** The last screenful: walks back from the end, laying out only what fits. */
  end(): void {
    const n = this.source.count();
    if (n === 0) return;
    let need = this.view;
    let index = n - 1;
    for (;;) {
      const h = this.rows(index).length;
      if (h >= need) {
        this.anchor = { index, offset: h - need };
        return;
      }
      need -= h;
      if (index === 0) {
        this.anchor = { index: 0, offset: 0 };
        return;
      }
      index--;
    }
  }

  /** Jumps to an absolute row (a scrollbar drag or a percentage), via the prefix sums. */
  jumpToRow(row: number): void {
    const s = this.state();
    const target = Math.max(0, Math.min(row, s.tree.total() - 1));
    this.anchor = s.tree.find(target);
    this.clampAnchor();
  }

  /** Never scroll past the point where the last row sits at the bottom. */
  private clampAnchor(): void {
    const n = this.source.count();
    if (n === 0) {
      this.anchor = { index: 0, offset: 0 };
      return;
    }
    if (this.anchor.index >= n) this.anchor = { index: n - 1, offset: 0 };
    // Count rows from the anchor to the end, up to one screen.
    let rows = -this.anchor.offset;
    for (let i = this.anchor.index; i < n && rows < this.view; i++) rows += this.rows(i).length;
    if (rows < this.view) this.end();
  }

  atEnd(): boolean {
    let rows = -this.anchor.offset;
    const n = this.source.count();
    for (let i = this.anchor.index; i < n && rows <= this.view; i++) rows += this.rows(i).length;
    return rows <= this.view;
  }

  // ── search ─────────────────────────────────────────────────────────────────────────────────

  startSearch(): void {
    this.search = { query: "", hits: [], current: -1, editing: true };
  }

  /** Runs the typed query: jumps to the first hit at or after the top of the view. */
  runSearch(query: string): void {
    const q = query.toLowerCase();
    const hits: number[] = [];
    if (q) for (let i = 0; i < this.source.count(); i++) if (this.source.text(i).toLowerCase().includes(q)) hits.push(i);
    this.search = { query, hits, current: -1, editing: false };
    if (hits.length === 0) {
      this.message = q ? `Not found: ${query}` : null;
      return;
    }
    const from = this.anchor.index;
    const k = hits.findIndex((h) => h >= from);
    this.gotoHit(k < 0 ? 0 : k, 0);
  }

  /** n (forward) and N (backward): the next row holding the query, across entries. */
  nextMatch(dir: 1 | -1): void {
    const s = this.search;
    if (!s || s.hits.length === 0) return;
    const q = s.query.toLowerCase();
    if (!this.shownAt || this.shownAt.index !== this.anchor.index || this.shownAt.offset !== this.anchor.offset) {
      this.matchFromView(dir, q);
      return;
    }
    const cur = this.matchRow;
    if (cur) {
      const rows = this.rows(cur.index);
      for (let r = cur.offset + dir; r >= 0 && r < rows.length; r += dir) {
        if (rowText(rows[r]!).toLowerCase().includes(q)) {
          this.show(cur.index, r);
          return;
        }
      }
    }
    const next = (s.current + dir + s.hits.length) % s.hits.length;
    this.message = (dir === 1 && next <= s.current) || (dir === -1 && next >= s.current) ? "search wrapped" : null;
    this.gotoHit(next, dir === 1 ? 0 : -1);
  }

  /**
   * n/N after the user scrolled (Home, PgDn, the wheel): the first match at or below the top of the
   * view (n), or the last one above it (N), not the one after the match shown before.
   */
  private matchFromView(dir: 1 | -1, q: string): void {
    const s = this.search!;
    const top = this.anchor;
    const order = dir === 1 ? s.hits.map((_, k) => k) : s.hits.map((_, k) => s.hits.length - 1 - k);
    for (const k of order) {
      const index = s.hits[k]!;
      if (dir === 1 ? index < top.index : index > top.index) continue;
      const rows = this.rows(index);
      const ok = (r: number) => rowText(rows[r]!).toLowerCase().includes(q);
      if (dir === 1) {
        for (let r = index === top.index ? top.offset : 0; r < rows.length; r++) if (ok(r)) return this.showHit(k, index, r);
      } else {
        for (let r = (index === top.index ? top.offset : rows.length) - 1; r >= 0; r--) if (ok(r)) return this.showHit(k, index, r);
      }
    }
    this.message = "search wrapped";
    this.gotoHit(dir === 1 ? 0 : s.hits.length - 1, dir === 1 ? 0 : -1);
  }

  private showHit(k: number, index: number, offset: number): void {
    this.search!.current = k;
    this.message = null;
    this.show(index, offset);
  }

  private gotoHit(k: number, fromRow: 0 | -1): void {
    const s = this.search!;
    s.current = k;
    const index = s.hits[k]!;
    const rows = this.rows(index);
    const q = s.query.toLowerCase();
    let r = -1;
    if (fromRow === 0) r = rows.findIndex((row) => rowText(row).toLowerCase().includes(q));
    else for (let j = rows.length - 1; j >= 0 && r < 0; j--) if (rowText(rows[j]!).toLowerCase().includes(q)) r = j;
    // A match cut by a wrap shows no single row holding it: show the entry's top.
    this.show(index, Math.max(0, r));
  }

  private show(index: number, offset: number): void {
    this.matchRow = { index, offset };
    // Put the match a third of the way down, so there is context above it.
    this.anchor = { index, offset };
    this.scrollBy(-Math.floor(this.view / 3));
    this.shownAt = { ...this.anchor };
  }

  // ── drawing ────────────────────────────────────────────────────────────────────────────────

  render(): Row[] {
    const out: Row[] = [];
    const n = this.source.count();
    const q = this.search && !this.search.editing ? this.search.query.toLowerCase() : "";
    let index = this.anchor.index;
    let offset = this.anchor.offset;
    while (out.length < this.view && index < n) {
      const rows = this.rows(index);
      for (let r = offset; r < rows.length && out.length < this.view; r++) {
        const current = this.matchRow !== null && this.matchRow.index === index && this.matchRow.offset === r;
        const row = rows[r]!;
        out.push({ spans: clipSpans(q ? highlight(row.spans, q, current) : row.spans, this.width) });
      }
      index++;
      offset = 0;
    }
    while (out.length < this.view) out.push({ spans: [span("~", ui.dim)] });
    out.push(this.statusBar());
    return out;
  }

  private statusBar(): Row {
    const s = this.search;
    if (s?.editing) return { spans: clipSpans([span("/", ui.key), span(s.query), span(" ", ui.cursor)], this.width) };
    const total = this.totalRows();
    const pct = total <= this.view ? 100 : Math.min(100, Math.round(((this.topRow() + this.view) / total) * 100));
    const left: Span[] = [span(` ${this.title} `, ui.selected), span(` ${this.atEnd() ? "end" : `${pct}%`}`, ui.dim)];
    if (s && s.hits.length > 0) left.push(span(`  match ${s.current + 1}/${s.hits.length} entries`, ui.dim));
    if (this.message) left.push(span(`  ${this.message}`, ui.warn));
    const help = "  ↑↓ PgUp PgDn Home End · / search · n N · Esc back";
    const w = left.reduce((a, x) => a + displayWidth(x.text), 0);
    if (w + displayWidth(help) <= this.width) left.push(span(help, ui.dim));
    return { spans: clipSpans(left, this.width, true) };
  }
}

/** Marks every occurrence of `q` (lower-cased) in a row. */
function highlight(spans: readonly Span[], q: string, current: boolean): Span[] {
  const text = spans.map((s) => s.text).join("");
  const lower = text.toLowerCase();
  if (lower.length !== text.length || !lower.includes(q)) return spans.slice();
  const marks: Array<[number, number]> = [];
  for (let i = lower.indexOf(q); i >= 0; i = lower.indexOf(q, i + q.length)) marks.push([i, i + q.length]);
  const style = current ? ui.currentMatch : ui.match;
  const out: Span[] = [];
  let pos = 0;
  for (const s of spans) {
    const start = pos;
    const end = pos + s.text.length;
    let cut = start;
    for (const [a, b] of marks) {
      if (b <= start || a >= end) continue;
      const from = Math.max(a, start);
      const to = Math.min(b, end);
      if (from > cut) out.push({ text: text.slice(cut, from), style: s.style });
      out.push({ text: text.slice(from, to), style });
      cut = to;
    }
    if (cut < end) out.push({ text: text.slice(cut, end), style: s.style });
    pos = end;
  }
  return out;
}
