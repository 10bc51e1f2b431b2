// The oracle's own bug, pinned down: xterm.js 6.0 mixes up combined characters when it reflows a
// line to a smaller width (see patchCombinedReflow in test/tui/support/terminal.ts). This was
// property seed 777092: a ZWJ family emoji in history showed as "é̂" after a resize. It is not
// ours: a single printed line, no renderer involved, shows it. If the first test fails, xterm.js
// has fixed it and the patch can go.
import { expect, test } from "bun:test";
import { Terminal } from "@xterm/headless";
import { createTestTerminal, resizeWithUnpatchedReflow } from "../support/terminal.ts";

const TEXT = "aaaao\u0308e\u0301"; // "aaaaöé": two combined clusters (base + combining mark)

async function printed(term: Terminal): Promise<void> {
  // Wraps at 4 columns into "aaaa" + "öé"; the CR LF moves the cursor off the line, since xterm.js
  // does not reflow the cursor's line.
  await new Promise<void>((r) => term.write(TEXT + "\r\n", r));
}

function text(term: Terminal): string {
  const b = term.buffer.active;
  return (b.getLine(0)?.translateToString(false) ?? "") + (b.getLine(1)?.translateToString(true) ?? "");
}

test("xterm.js 6.0: reflowing 'aaaaöé' from 4 to 3 columns turns é into ö", async () => {
  const term = new Terminal({ cols: 4, rows: 4, allowProposedApi: true });
  await printed(term);
  expect(text(term)).toBe("aaaa" + "o\u0308e\u0301");
  resizeWithUnpatchedReflow(term, 3, 4);
  expect(text(term)).toBe("aaa" + "ao\u0308o\u0308");
  term.dispose();
});

test("the test terminal reflows it correctly", async () => {
  const t = createTestTerminal({ cols: 4, rows: 4 });
  await printed(t.term);
  t.resize(3, 4);
  expect(t.logicalLines()).toEqual(["aaaao\u0308e\u0301"]);
  t.resize(2, 4);
  t.resize(7, 4);
  expect(t.logicalLines()).toEqual(["aaaao\u0308e\u0301"]);
  t.dispose();
});
