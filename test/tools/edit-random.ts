// Random files and random edits with the slips models make, each with the outcome it must have:
// the generator and the oracle behind test/tools/edit-property.test.ts.
import { foldText } from "../../src/tools/edit-fold.ts";
import type { EditPlan } from "../../src/tools/edit-match.ts";

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
export const chance = (r: Rng, p: number) => r() < p;

const WORDS = ["alpha", "beta", "gamma", "delta", "omega", "it’s", "don't", "café", "naïve"];
const INDENTS = ["", "", "  ", "    ", "\t", "\t\t", "        "];
const FILLERS = ["}", "", "    }", "  return;", "end", ""];

/** A line with an id no other line has, and characters that have look-alikes. */
function idLine(r: Rng, id: number): string {
  const w = pick(r, WORDS);
  const forms = [
    () => `const v${id} = “${w}”;`,
    () => `say(‘${w}’, v${id})`,
    () => `# v${id}: pages 10–20 — see ${w}`,
    () => `x${id} = "${w}" + 'q' - 1`,
    () => `call(v${id}, ${w}-${w})`,
    () => `label${id} = "100\u00a0km ${w}"`,
    () => `label${id} = "cafe\u0301 na\u00efve"`,
    () => `if (v${id} > 0) {`,
    () => `return v${id} − 1;`,
    () => `note‑${id} non‑blocking ${w}`,
  ];
  return pick(r, INDENTS) + pick(r, forms)();
}

/** Characters a model may type for each other (one class each), and composed ↔ decomposed. */
const LOOK_ALIKE_CLASSES = [['"', "“", "”", "„"], ["'", "‘", "’"], ["-", "–", "—", "‑", "−"], [" ", "\u00a0", "\u202f"]];
const CLASS_OF = new Map(LOOK_ALIKE_CLASSES.flatMap((c) => c.map((ch) => [ch, c] as const)));
const COMPOSED: Record<string, string> = { "é": "e\u0301", "ï": "i\u0308" };
const DECOMPOSED = new Map(Object.entries(COMPOSED).map(([a, b]) => [b, a]));

/** The model's copy of `s`: each look-alike character maybe swapped (indentation left alone). */
function lookAlike(r: Rng, s: string, spaces = true): string {
  const indent = /^[ \t]*/.exec(s)![0];
  let out = indent;
  const body = s.slice(indent.length);
  for (let i = 0; i < body.length; i++) {
    const two = body.slice(i, i + 2);
    if (DECOMPOSED.has(two) && chance(r, 0.5)) {
      out += DECOMPOSED.get(two)!;
      i++;
      continue;
    }
    const ch = body[i]!;
    if (COMPOSED[ch] && chance(r, 0.5)) out += COMPOSED[ch];
    else if (CLASS_OF.has(ch) && (spaces || !/\s/.test(ch)) && chance(r, 0.5)) out += pick(r, CLASS_OF.get(ch)!);
    else out += ch;
  }
  return out;
}

type Entry = { keep: number } | { fresh: string };
export type Kind = "exact" | "lookalike" | "prefix" | "fence" | "prefix+lookalike" | "fence+lookalike" | "partial" | "partial-lookalike" | "ambiguous" | "ambiguous-lookalike" | "replace-all" | "stale-kept" | "stale-replaced" | "unseen-line";
export const KINDS: Kind[] = ["exact", "lookalike", "prefix", "fence", "prefix+lookalike", "fence+lookalike", "partial", "partial-lookalike", "ambiguous", "ambiguous-lookalike", "replace-all", "stale-kept", "stale-replaced", "unseen-line"];

export type Case = {
  kind: Kind;
  file: string;
  old: string;
  new: string;
  replaceAll: boolean;
  /** What an applied edit must produce: exact text, or per line (kept lines exact, new lines alike once folded). */
  want:
    | { text: string }
    | { before: string; lines: Array<{ exact: string } | { folded: string }>; after: string; unseen?: string }
    | { span: [number, number]; folded: string }
    | "refused";
};

function numbered(lines: string[], from: number, r: Rng): string {
  const arrow = chance(r, 0.6);
  const pad = chance(r, 0.7);
  return lines.map((l, i) => `${pad ? String(from + i).padStart(6) : String(from + i)}${arrow ? "→" : "\t"}${l}`).join("\n");
}
const fenced = (s: string, lang: string) => `\`\`\`${lang}\n${s}\n\`\`\``;

export function makeCase(r: Rng): Case {
  const kind = pick(r, KINDS);
  let id = 0;
  const lines: string[] = [];
  const n = 3 + Math.floor(r() * 25);
  for (let i = 0; i < n; i++) lines.push(chance(r, 0.75) ? idLine(r, ++id) : pick(r, FILLERS));
  // The block the model means: its first and last lines carry ids, so it is in one place only.
  const idLines = lines.flatMap((l, i) => (/\d/.test(l) ? [i] : []));
  if (idLines.length < 2) lines.push(idLine(r, ++id), idLine(r, ++id));
  const ids = lines.flatMap((l, i) => (/\d/.test(l) ? [i] : []));
  const minLen = kind.startsWith("stale") || kind === "unseen-line" ? 3 : 1;
  let s = pick(r, ids);
  let e = ids.filter((i) => i >= s + minLen - 1 && i < s + 7).at(Math.floor(r() * 3)) ?? -1;
  if (e < 0) {
    s = ids[0]!;
    e = ids.at(-1)!;
    if (e - s + 1 < minLen) {
      lines.push("x = 1", idLine(r, ++id));
      e = lines.length - 1;
    }
  }
  const file = lines.join("\n") + "\n";
  const offset = (line: number) => lines.slice(0, line).join("\n").length + (line > 0 ? 1 : 0);
  const start = offset(s);
  const end = offset(e) + lines[e]!.length;
  const block = lines.slice(s, e + 1);

  if (kind === "partial" || kind === "partial-lookalike") {
    // A piece of one line around its id.
    const line = lines[s]!;
    const m = /\d+/.exec(line)!;
    // With a character either side of the id (never a digit), so it is in this line only.
    const a = Math.max(/^[ \t]*/.exec(line)![0].length, m.index - 1 - Math.floor(r() * 4));
    let b = Math.min(line.length, m.index + m[0].length + 1 + Math.floor(r() * 6));
    while (b < line.length && /\s/.test(line[b - 1]!)) b++;
    const old = line.slice(a, b);
    const cut = Math.floor(r() * old.length);
    let newText = old.slice(0, cut) + pick(r, ["_new", " + 1", "“x”", "—"]) + old.slice(cut + Math.floor(r() * 2));
    if (foldText(newText) === foldText(old)) newText += "!";
    const at = start + a;
    if (kind === "partial") return { kind, file, old, new: newText, replaceAll: false, want: { text: file.slice(0, at) + newText + file.slice(at + old.length) } };
    const modelOld = lookAlike(r, old);
    const modelNew = modelOld.slice(0, cut) + newText.slice(cut);
    return { kind, file, old: modelOld, new: modelNew, replaceAll: false, want: { span: [at, at + old.length], folded: foldText(modelNew) } };
  }

  // The change: each line kept, replaced by a new one or deleted, new lines inserted; never empty.
  const entries: Entry[] = [];
  for (let i = 0; i < block.length; i++) {
    if (chance(r, 0.15)) entries.push({ fresh: idLine(r, 1000 + ++id) });
    const roll = r();
    if (roll < 0.6) entries.push({ keep: i });
    else if (roll < 0.9) entries.push({ fresh: idLine(r, 1000 + ++id) });
  }
  if (entries.length === 0 || entries.every((x) => "keep" in x && entries.length === block.length)) entries.push({ fresh: idLine(r, 1000 + ++id) });
  const newOf = (oldLines: string[]) => entries.map((x) => ("keep" in x ? oldLines[x.keep]! : x.fresh)).join("\n");
  const exactWant = (old: string, nw: string) => ({ text: file.slice(0, start) + nw + file.slice(start + old.length) });
  const T = block.join("\n");

  switch (kind) {
    case "exact":
      return { kind, file, old: T, new: newOf(block), replaceAll: false, want: exactWant(T, newOf(block)) };
    case "prefix": {
      const nw = newOf(block);
      const nNum = chance(r, 0.5) ? numbered(nw.split("\n"), s + 1, r) : nw;
      return { kind, file, old: numbered(block, s + 1, r), new: nNum, replaceAll: false, want: exactWant(T, nw) };
    }
    case "fence": {
      const lang = pick(r, ["", "ts", "python"]);
      return { kind, file, old: fenced(T, lang), new: fenced(newOf(block), lang), replaceAll: false, want: exactWant(T, newOf(block)) };
    }
    case "lookalike":
    case "prefix+lookalike":
    case "fence+lookalike": {
      const model = block.map((l) => lookAlike(r, l));
      let old = model.join("\n");
      let nw = newOf(model);
      if (kind === "prefix+lookalike") {
        old = numbered(model, s + 1, r);
        if (chance(r, 0.5)) nw = numbered(nw.split("\n"), s + 1, r);
      } else if (kind === "fence+lookalike") {
        old = fenced(old, "js");
        nw = fenced(nw, "js");
      }
      const want = entries.map((x) => ("keep" in x ? { exact: block[x.keep]! } : { folded: foldText(x.fresh) }));
      return { kind, file, old, new: nw, replaceAll: false, want: { before: file.slice(0, start), lines: want, after: file.slice(end) } };
    }
    case "ambiguous":
    case "ambiguous-lookalike":
    case "replace-all": {
      // The block twice: the second copy exact, or with other look-alike characters.
      const variant = kind === "ambiguous-lookalike";
      const copy = variant ? block.map((l) => lookAlike(r, l, false)) : block;
      const at = chance(r, 0.5) ? 0 : lines.length;
      const twice = [...lines.slice(0, at), ...copy, ...lines.slice(at)].join("\n") + "\n";
      const old = variant ? block.map((l) => lookAlike(r, l, false)).join("\n") : T;
      const nw = newOf(block);
      if (kind === "replace-all") return { kind, file: twice, old, new: nw, replaceAll: true, want: { text: twice.split(old).join(nw) } };
      // Refused, unless the model's text is exactly one of the two (then that one is the place).
      const first = twice.indexOf(old);
      const once = first !== -1 && twice.indexOf(old, first + 1) === -1;
      return { kind, file: twice, old, new: nw, replaceAll: false, want: once ? { text: twice.slice(0, first) + nw + twice.slice(first + old.length) } : "refused" };
    }
    case "unseen-line": {
      // The file has a line between that the model never saw: it must survive, or the edit refuse.
      const inner = block.flatMap((_, i) => (i > 0 && i < block.length - 1 ? [i] : []));
      const gone = pick(r, inner);
      const model = block.filter((_, i) => i !== gone);
      const shifted = entries.flatMap((x): Entry[] => ("keep" in x ? (x.keep === gone ? [] : [{ keep: x.keep > gone ? x.keep - 1 : x.keep }]) : [x]));
      if (!shifted.some((x) => "fresh" in x) && shifted.length === model.length) shifted.push({ fresh: idLine(r, 3000 + ++id) });
      const nw = shifted.map((x) => ("keep" in x ? model[x.keep]! : x.fresh)).join("\n");
      const want = shifted.map((x) => ({ exact: "keep" in x ? model[x.keep]! : x.fresh }));
      return { kind, file, old: model.join("\n"), new: nw, replaceAll: false, want: { before: file.slice(0, start), lines: want, after: file.slice(end), unseen: block[gone]! } };
    }
    case "stale-kept":
    case "stale-replaced": {
      // An interior line the model remembers wrongly (its id, as if renamed since it read the file).
      const inner = block.flatMap((l, i) => (i > 0 && i < block.length - 1 && /\d/.test(l) ? [i] : []));
      const bad = inner.length ? pick(r, inner) : 1;
      const model = block.map((l, i) => (i === bad ? (/\d/.test(l) ? l.replace(/\d+/, (d) => `${d}z`) : `${l}zz`) : l));
      const old = model.join("\n");
      if (kind === "stale-kept") {
        // new_string keeps the stale line and changes something else.
        const keep = entries.filter((x) => !("keep" in x) || x.keep !== bad);
        const withBad: Entry[] = [...keep.slice(0, 1), { keep: bad }, ...keep.slice(1)];
        const nw = withBad.map((x) => ("keep" in x ? model[x.keep]! : x.fresh)).join("\n");
        return { kind, file, old, new: nw, replaceAll: false, want: "refused" };
      }
      const replaced: Entry[] = entries.map((x) => ("keep" in x && x.keep === bad ? { fresh: idLine(r, 2000 + ++id) } : x));
      const nw = replaced.map((x) => ("keep" in x ? model[x.keep]! : x.fresh)).join("\n");
      const want = replaced.map((x) => ("keep" in x ? { exact: block[x.keep]! } : { exact: x.fresh }));
      return { kind, file, old, new: nw, replaceAll: false, want: { before: file.slice(0, start), lines: want.map((w) => ({ exact: w.exact })), after: file.slice(end) } };
    }
  }
}

/** Why the outcome breaks the property, or null. */
export function violation(c: Case, plan: EditPlan): string | null {
  if (!plan.ok) {
    if (c.want === "refused") return null;
    // A tolerated slip at a place that is unique must apply; the stale class may refuse.
    if (c.kind === "stale-replaced" || c.kind === "unseen-line") return plan.kind === "stale" || plan.kind === "not_found" ? null : `refused as ${plan.kind}`;
    return `refused (${plan.kind}): ${plan.message.slice(0, 200)}`;
  }
  if (plan.replacements.some((x) => x.start < 0 || x.end > c.file.length)) return "replacement out of range";
  const got = plan.content;
  const w = c.want;
  if (w === "refused") return "applied an edit that must be refused";
  if ("text" in w) return got === w.text ? null : "content differs";
  if ("span" in w) {
    const [a, b] = w.span;
    const tail = c.file.slice(b);
    if (!got.startsWith(c.file.slice(0, a)) || !got.endsWith(tail)) return "bytes outside the span changed";
    return foldText(got.slice(a, got.length - tail.length)) === w.folded ? null : "replaced text is not new_string";
  }
  if (!got.startsWith(w.before) || !got.endsWith(w.after)) return "bytes outside the block changed";
  const mid = got.slice(w.before.length, got.length - w.after.length).split("\n");
  const wrong = wrongLine(mid, w.lines);
  if (w.unseen === undefined) return wrong;
  // The line the model never saw is still there, somewhere in the block (a blank one may go).
  for (let at = 0; at < mid.length; at++) if (mid[at] === w.unseen && wrongLine(mid.filter((_, i) => i !== at), w.lines) === null) return null;
  return w.unseen.trim() === "" ? wrong : "a line old_string lacks was lost or the block is wrong";
}

function wrongLine(mid: string[], want: Array<{ exact: string } | { folded: string }>): string | null {
  if (mid.length !== want.length) return `block has ${mid.length} lines, want ${want.length}`;
  for (let i = 0; i < mid.length; i++) {
    const x = want[i]!;
    if ("exact" in x ? mid[i] !== x.exact : foldText(mid[i]!) !== x.folded) return `line ${i + 1} of the block is ${JSON.stringify(mid[i])}`;
  }
  return null;
}

