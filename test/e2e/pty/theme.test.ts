// Light backgrounds (issue 18): the terminal's answer to OSC 11 picks the theme; secondary text
// (the mode, borders, line numbers) is bright black (SGR 90) on dark, a dark grey (256-colour 240)
// on light; NO_COLOR keeps every colour off; "theme" in settings and /theme override, and /theme
// saves the choice to the user's settings.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { KEY, idle, ptyFixtures, type PtySession } from "./harness.ts";

const fixtures = ptyFixtures();
const WHITE = "rgb:ffff/ffff/ffff";
const DARK_BG = "rgb:1e1e/1e1e/2e2e";
/** SGR parameter lists written (the parameters between CSI and m). */
const sgrs = (out: string) => [...out.matchAll(/\x1b\[([\d;:]*)m/g)].map((m) => m[1] ?? "");
const hasParam = (out: string, seq: RegExp) => sgrs(out).some((p) => seq.test(p));
const BRIGHT_BLACK = /(^|;)90($|;)/;
const GREY_240 = /(^|;)38;5;240($|;)/;

async function started(opts: { background?: string; env?: Record<string, string>; settings?: object }): Promise<{ s: PtySession; env: Record<string, string> }> {
  const fake = await fixtures.api({ turns: [] });
  const env = { ...isolatedEnv(fake.url), ...opts.env };
  if (opts.settings) {
    mkdirSync(join(env.XDG_CONFIG_HOME!, "khaelor"), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), JSON.stringify(opts.settings));
  }
  const s = fixtures.pty([], { cwd: tempProject(), env, ...(opts.background ? { background: opts.background } : {}) });
  await s.waitFor(idle, "the composer");
  return { s, env };
}

describe("theme", () => {
  test("a light background (OSC 11) gets dark-grey secondary text, never bright black; a dark one keeps bright black", async () => {
    const light = await started({ background: WHITE });
    expect(hasParam(light.s.output(), GREY_240)).toBe(true);
    expect(hasParam(light.s.output(), BRIGHT_BLACK)).toBe(false);
    const dark = await started({ background: DARK_BG });
    expect(hasParam(dark.s.output(), BRIGHT_BLACK)).toBe(true);
    expect(hasParam(dark.s.output(), GREY_240)).toBe(false);
    // No answer at all: dark, as before.
    const silent = await started({});
    expect(hasParam(silent.s.output(), BRIGHT_BLACK)).toBe(true);
  });

  test("NO_COLOR: no colour at all on a light background either", async () => {
    const { s } = await started({ background: WHITE, env: { NO_COLOR: "1" } });
    expect(sgrs(s.output()).filter((p) => /(^|;)(3\d|9\d|38;)/.test(p))).toEqual([]);
  });

  test('"theme": "dark" in settings wins over the light background; /theme light switches and saves it', async () => {
    const { s, env } = await started({ background: WHITE, settings: { theme: "dark", wrap: "edge" } });
    expect(hasParam(s.output(), BRIGHT_BLACK)).toBe(true);
    const before = s.output().length;
    s.type("/theme light");
    await s.waitForText("› /theme light");
    s.send(KEY.enter);
    await s.waitForText("Theme: light; saved to");
    expect(hasParam(s.output().slice(before), GREY_240)).toBe(true);
    const saved = JSON.parse(readFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), "utf8"));
    expect(saved).toEqual({ theme: "light", wrap: "edge" });
    // Alone, /theme goes on to the next choice: light → dark.
    s.type("/theme");
    await s.waitForText("› /theme");
    s.send(KEY.enter);
    await s.waitForText("Theme: dark; saved to");
    s.type("/theme pink");
    await s.waitForText("› /theme pink");
    s.send(KEY.enter);
    await s.waitForText('/theme takes auto, dark or light, not "pink".');
  });
});
