// A small list under (or over) the composer: slash-command completion, @file matches, sessions,
// models. Up/Down move the selection, Tab or Enter take it, Esc closes; the list scrolls to keep
// the selection visible.
import type { Row, Span } from "../render/style.ts";
import { clipSpans, displayWidth, proseRows, span } from "./text.ts";
import { ui } from "./theme.ts";

export type PickerItem = { label: string; detail?: string; /** Indices in label to emphasise (fuzzy matches). */ marks?: number[] };

export type PickerState<T> = {
  title?: string;
  items: Array<PickerItem & { value: T }>;
  selected: number;
  /** Typed to filter the items (choosers only); shown after the title. */
  query?: string;
};

export function movePicker<T>(p: PickerState<T>, delta: number): void {
  if (p.items.length === 0) return;
  p.selected = (p.selected + delta + p.items.length) % p.items.length;
}

export function renderPicker<T>(p: PickerState<T>, width: number, maxRows: number): Row[] {
  const rows: Row[] = [];
  if (p.title) {
    const filter = p.query === undefined ? [] : p.query ? [span("  filter: ", ui.dim), span(p.query, ui.accent)] : [span("  type to filter", ui.dim)];
    // A question (trust, a plan) may name a long path: it wraps between words, its end never cut.
    rows.push(...proseRows([span(p.title, ui.dim), ...filter], width, [], [span("  ")], true));
  }
  const room = Math.max(1, maxRows - rows.length);
  if (p.items.length === 0) {
    rows.push({ spans: [span("  (nothing matches)", ui.dim)] });
    return rows;
  }
  // Details start in one column (labels padded to the widest, up to half the screen).
  const labelW = Math.min(Math.floor(width / 2), Math.max(...p.items.map((it) => displayWidth(it.label))));
  const start = Math.max(0, Math.min(p.selected - room + 1, p.items.length - room));
  const top = Math.max(0, Math.min(start, p.selected));
  for (let i = top; i < Math.min(p.items.length, top + room); i++) {
    const it = p.items[i]!;
    const sel = i === p.selected;
    const label = markLabel(it, sel);
    const spans: Span[] = [span(sel ? "❯ " : "  ", sel ? ui.accentBold : undefined), ...label];
    if (it.detail) spans.push(span(`${" ".repeat(Math.max(0, labelW - displayWidth(it.label)))}  ${it.detail}`, ui.dim));
    rows.push({ spans: clipSpans(spans, width, true) });
  }
  return rows;
}

function markLabel(it: PickerItem, selected: boolean): Span[] {
  const base = selected ? ui.bold : undefined;
  if (!it.marks || it.marks.length === 0) return [span(it.label, base)];
  const set = new Set(it.marks);
  const out: Span[] = [];
  let cur = "";
  let curMarked = false;
  for (let i = 0; i < it.label.length; i++) {
    const m = set.has(i);
    if (m !== curMarked && cur) {
      out.push(span(cur, curMarked ? ui.accentBold : base));
      cur = "";
    }
    curMarked = m;
    cur += it.label[i];
  }
  if (cur) out.push(span(cur, curMarked ? ui.accentBold : base));
  return out;
}
