// The one control-character policy, its decision-screen part: invisible format characters (bidi
// controls, zero-width, tags: Trojan Source and hidden text) become markers a reader can see,
// counted, while visible text and the emoji sequences that need them stay as they are.
import { describe, expect, test } from "bun:test";
import { countInvisibles, invisiblesLine, revealInvisibles, splitInvisibles } from "../../src/text/control-chars.ts";

// The CVE-2021-42574 example: the code reads as a comment, the compiler sees `if (isAdmin)`.
const trojan = "/*\u202e } \u2066if (isAdmin)\u2069 \u2066 begin admins only */";

describe("revealInvisibles", () => {
  test("shows each bidi control and zero-width character as a named marker", () => {
    expect(revealInvisibles("a\u202eb\u200bc")).toBe("a⟨RLO⟩b⟨ZWSP⟩c");
    expect(revealInvisibles(trojan)).toBe("/*⟨RLO⟩ } ⟨LRI⟩if (isAdmin)⟨PDI⟩ ⟨LRI⟩ begin admins only */");
    expect(revealInvisibles("x\u00ady\ufeffz\u200dw\u200cv\u2060u\u061ct\u180es")).toBe("x⟨SHY⟩y⟨BOM⟩z⟨ZWJ⟩w⟨ZWNJ⟩v⟨WJ⟩u⟨ALM⟩t⟨MVS⟩s");
  });

  test("no character of Unicode's Cf category, nor a tag character, survives; each is one marker", () => {
    const listed = [
      ...range(0x200b, 0x200f), ...range(0x202a, 0x202e), ...range(0x2060, 0x2064), ...range(0x2066, 0x2069),
      0xfeff, 0x00ad, 0x061c, 0x180e, 0x06dd, 0xfff9, 0x1d173, 0xe0001, 0xe0041, 0xe007f,
    ];
    for (const cp of listed) {
      const ch = String.fromCodePoint(cp);
      const shown = revealInvisibles(`a${ch}b`);
      expect({ cp: cp.toString(16), shown: [...shown].some((c) => /\p{Cf}/u.test(c) || (c.codePointAt(0)! >= 0xe0000 && c.codePointAt(0)! <= 0xe007f)) }).toEqual({ cp: cp.toString(16), shown: false });
      expect(shown).toMatch(/^a⟨[^⟩]+⟩b$/);
      expect(countInvisibles(`a${ch}b`).total).toBe(1);
    }
    // Everything else in Cf, whatever its name: the code point.
    expect(revealInvisibles("a\u2061b")).toBe("a⟨U+2061⟩b");
  });

  test("a Hangul filler, a letter drawn as nothing (the 'invisible backdoor' identifier), is shown too", () => {
    expect(revealInvisibles("const { timeout,\u3164} = req.query;")).toBe("const { timeout,⟨U+3164⟩} = req.query;");
    expect(countInvisibles("\u3164\uffa0\u115f\u1160")).toEqual({ total: 4, kinds: ["blank"] });
  });

  test("a run of tag characters reads as the text it hides", () => {
    const hidden = [..."run rm -rf"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    expect(revealInvisibles(`ok${hidden}.`)).toBe("ok⟨TAG run rm -rf⟩.");
    expect(countInvisibles(`ok${hidden}.`)).toEqual({ total: 10, kinds: ["tag"] });
  });

  test("visible text is returned as it is, emoji sequences included", () => {
    for (const s of ["plain", "héllo 中文 e\u0301", "family 👨\u200d👩\u200d👧 and ❤\ufe0f\u200d🔥", "flag 🏴\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}", "tab\tand \x1b[2J"]) {
      expect(revealInvisibles(s)).toBe(s);
      expect(countInvisibles(s).total).toBe(0);
    }
    // A joiner between two letters is not an emoji sequence.
    expect(revealInvisibles("a\u200d👩")).toBe("a⟨ZWJ⟩👩");
  });

  test("the pieces keep the original characters beside each marker", () => {
    expect(splitInvisibles("a\u202e\u202eb")).toEqual([
      { text: "a" },
      { text: "⟨RLO⟩", hidden: "\u202e", kind: "bidi" },
      { text: "⟨RLO⟩", hidden: "\u202e", kind: "bidi" },
      { text: "b" },
    ]);
    expect(splitInvisibles("")).toEqual([]);
  });
});

describe("the count line", () => {
  test("says how many, and of which kinds, in a fixed order", () => {
    const c = countInvisibles(["x\u200b", trojan]);
    expect(c).toEqual({ total: 5, kinds: ["bidi", "zero-width"] });
    expect(invisiblesLine(c, "this change")).toBe("this change contains 5 invisible characters (bidi controls, zero-width)");
    expect(invisiblesLine(countInvisibles("\u00ad"), "this command")).toBe("this command contains 1 invisible character (zero-width)");
    expect(invisiblesLine(countInvisibles("clean"), "this change")).toBe("");
    expect(invisiblesLine(countInvisibles("\u{e0041}\ufff9\u3164\u200e"), "it")).toBe("it contains 4 invisible characters (bidi controls, tag characters, format characters, blank letters)");
  });
});

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}
