// HTML entity decoding for `&name;` and numeric references. The full HTML5 table is 2,000+
// names; model output uses a handful, so we carry the common ones and leave others literal
// (CommonMark says an unknown name is not an entity, so literal text is the correct fallback).
const NAMED: Record<string, string> = {
  amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", copy: "©", reg: "®",
  trade: "™", hellip: "…", mdash: "—", ndash: "–", lsquo: "‘", rsquo: "’", ldquo: "“",
  rdquo: "”", laquo: "«", raquo: "»", middot: "·", bull: "•", deg: "°", plusmn: "±",
  times: "×", divide: "÷", micro: "µ", para: "¶", sect: "§", euro: "€", pound: "£", yen: "¥",
  cent: "¢", larr: "←", rarr: "→", uarr: "↑", darr: "↓", harr: "↔", rArr: "⇒", lArr: "⇐",
  hArr: "⇔", le: "≤", ge: "≥", ne: "≠", asymp: "≈", infin: "∞", check: "✓", cross: "✗",
  shy: "\u00ad", ensp: "\u2002", emsp: "\u2003", thinsp: "\u2009", zwj: "\u200d", zwnj: "\u200c",
  auml: "ä", ouml: "ö", uuml: "ü", Auml: "Ä", Ouml: "Ö", Uuml: "Ü", szlig: "ß", eacute: "é",
  egrave: "è", aacute: "á", agrave: "à", ccedil: "ç", ntilde: "ñ", frac12: "½", frac14: "¼",
  frac34: "¾", alpha: "α", beta: "β", gamma: "γ", delta: "δ", lambda: "λ", mu: "μ", pi: "π",
  sigma: "σ", omega: "ω", Delta: "Δ", Sigma: "Σ", Omega: "Ω", sum: "∑", prod: "∏", radic: "√",
  part: "∂", nabla: "∇", isin: "∈", notin: "∉", cap: "∩", cup: "∪", and: "∧", or: "∨",
  forall: "∀", exist: "∃", empty: "∅", equiv: "≡", sub: "⊂", sup: "⊃", dagger: "†",
  Dagger: "‡", permil: "‰", prime: "′", Prime: "″", tilde: "˜", circ: "ˆ", ohm: "Ω",
  DifferentialD: "ⅆ", ClockwiseContourIntegral: "∲", ngE: "≧̸", HilbertSpace: "ℋ",
  Dcaron: "Ď", AElig: "Æ",
};

export const ENTITY_SOURCE = "&(?:#[xX][a-fA-F0-9]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});";

/** The text an entity stands for, or null when it is not a known entity. */
export function decodeEntity(entity: string): string | null {
  const body = entity.slice(1, -1);
  if (body.startsWith("#")) {
    const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    if (!Number.isFinite(code) || code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\uFFFD";
    return String.fromCodePoint(code);
  }
  return NAMED[body] ?? null;
}
