// The interactive app's costs, per unit: bytes written to the terminal per byte of answer text
// (and per byte of the floor: the same history painted once at rest, styles and box drawing included),
// frame build+diff time, CPU seconds for a whole streamed answer, peak RSS, startup of the real
// CLI in a pseudo-terminal (first frame, composer taking keys, session ready; from source and
// from the binary), and keystroke echo (time and bytes) with a
// 10,000-message transcript and a 10,000-entry prompt history.
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openAgentSession } from "../src/agent/agent-session.ts";
import { parseArgs } from "../src/cli/args.ts";
import { sessionOptions } from "../src/modes/shared/session-options.ts";
import { startFakeApi } from "../src/fakeapi/index.ts";
import { App } from "../src/tui/app/app.ts";
import { FileFinder } from "../src/tui/app/file-finder.ts";
import { PromptHistory } from "../src/tui/app/history.ts";
import type { Row } from "../src/tui/render/style.ts";
import type { FrameStats, Screen } from "../src/tui/screen/screen.ts";
import { countingScreen, keepCommitted, keepFrames, stillPaintBytes } from "./counting-screen.ts";

type Result = { name: string; [k: string]: unknown };

/** A long answer: prose, lists, code and tables, ~13.5 KB. */
function longAnswer(): string {
  const parts: string[] = [];
  for (let i = 0; i < 40; i++) {
    parts.push(`## Section ${i}\n\nThe parser keeps **settled** blocks frozen while the tail streams; this paragraph is long enough to wrap a few times at eighty columns, with \`inline code\` and a [link](https://example.com/${i}).\n`);
    parts.push(`- item one of ${i}\n- item two with *emphasis*\n- item three\n`);
    parts.push("```ts\nfunction f" + i + "(x: number): number {\n  return x * " + i + ";\n}\n```\n");
    if (i % 5 === 0) parts.push(`| a | b | c |\n|---|---|---|\n| ${i} | ${i * 2} | ${i * 3} |\n`);
  }
  return parts.join("\n");
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))] ?? 0;
};

async function withApp<T>(opts: { answer: string; cols: number; rows: number; pacing: { textChunk: number; delayMs: number } }, fn: (app: App, screen: Screen, frames: FrameStats[], written: () => number, committed: readonly Row[]) => Promise<T>): Promise<T> {
  const home = mkdtempSync(join(tmpdir(), "khaelor-bench-home-"));
  process.env.KHAELOR_HOME = join(home, "data");
  const api = await startFakeApi({ scenario: { pacing: opts.pacing, turns: [{ content: [{ type: "text", text: opts.answer }] }] } });
  const dir = mkdtempSync(join(tmpdir(), "khaelor-bench-proj-"));
  const cli = parseArgs([]);
  const session = await openAgentSession({ ...sessionOptions(cli), ask: async () => ({ allow: true }), api: { baseURL: api.url, apiKey: "sk-ant-bench" }, cwd: dir });
  const { screen, bytes } = countingScreen(opts.cols, opts.rows);
  const committed = keepCommitted(screen);
  const frames = keepFrames(screen);
  let exited = false;
  const app = new App({
    session,
    screen,
    history: new PromptHistory(null),
    finder: new FileFinder(dir),
    links: false,
    gitBranch: null,
    reopen: () => Promise.reject(new Error("no")),
    onPager: () => {},
    onExit: () => void (exited = true),
  });
  app.start([], null);
  try {
    return await fn(app, screen, frames, bytes, committed);
  } finally {
    if (!exited) await app.exit(0);
    await api.close();
  }
}

async function streamedAnswer(): Promise<Result> {
  const answer = longAnswer();
  return withApp({ answer, cols: 200, rows: 60, pacing: { textChunk: 24, delayMs: 2 } }, async (app, _screen, frames, written, committed) => {
    const b0 = written();
    const f0 = frames.length;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    app.submit("go");
    while (app.busy) await Bun.sleep(5);
    app.renderNow();
    await Bun.sleep(40);
    const cpu = process.cpuUsage(cpu0);
    const ms = performance.now() - t0;
    const fs = frames.slice(f0).map((f) => f.buildMs + f.diffMs);
    const answerBytes = Buffer.byteLength(answer);
    // The floor: the same history rows painted once, at rest, by a fresh screen. What streaming
    // writes beyond that is the price of showing the answer as it arrives.
    const once = stillPaintBytes(committed, 200, 60);
    return {
      name: "app: stream a 13.5 KB markdown answer (code, lists, tables) at 200x60 (in-process, fake API over HTTP)",
      answerBytes,
      bytesWritten: written() - b0,
      bytesPerAnswerByte: +((written() - b0) / answerBytes).toFixed(3),
      bytesOfOneStillPaint: once,
      bytesPerStillPaintByte: +((written() - b0) / once).toFixed(3),
      frames: fs.length,
      frameP50ms: +pct(fs, 0.5).toFixed(3),
      frameP99ms: +pct(fs, 0.99).toFixed(3),
      cpuSeconds: +((cpu.user + cpu.system) / 1e6).toFixed(3),
      wallSeconds: +(ms / 1000).toFixed(3),
      peakRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
    };
  });
}

async function keystrokeEcho(): Promise<Result> {
  return withApp({ answer: "ok", cols: 120, rows: 40, pacing: { textChunk: 12, delayMs: 0 } }, async (app, screen, _frames, written) => {
    // A 10,000-message transcript (5,000 prompts and answers) and a 10,000-entry history.
    for (let i = 0; i < 5000; i++) {
      app.transcript.apply({ type: "user_message", id: `u${i}`, ts: 0, content: `question ${i} about the parser` });
      app.transcript.apply({
        type: "assistant_message",
        id: `a${i}`,
        ts: 0,
        costUsd: 0,
        message: { id: `m${i}`, model: "x", stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }, content: [{ type: "text", text: `Answer ${i}: **done**, see \`file${i}.ts\`.` }] },
      });
    }
    const h = new PromptHistory(null, Array.from({ length: 10_000 }, (_, i) => `prompt ${i}`));
    app.state.history = h;
    app.renderNow();
    screen.frame(); // the 10,000 messages go to history (and are not measured)
    const times: number[] = [];
    const bytes: number[] = [];
    for (let i = 0; i < 200; i++) {
      const b0 = written();
      const t0 = performance.now();
      app.onInput([{ type: "text", text: String.fromCharCode(97 + (i % 26)) }]);
      screen.frame();
      times.push(performance.now() - t0);
      bytes.push(written() - b0);
    }
    return {
      name: "app: keystroke echo with a 10,000-message transcript and 10,000-entry history (120x40)",
      echoP50ms: +pct(times, 0.5).toFixed(3),
      echoP99ms: +pct(times, 0.99).toFixed(3),
      bytesPerKeystrokeP50: pct(bytes, 0.5),
      bytesPerKeystrokeMax: Math.max(...bytes),
    };
  });
}

/**
 * Startup of the real CLI in a pty (median of `runs`): the first frame, the composer taking keys
 * (before the session is open), and the session ready ("ask anything"). `bin`: the compiled
 * binary; otherwise from source.
 */
async function startup(bin: string | null, runs = 5): Promise<Result> {
  const { startPty } = await import("../test/e2e/pty/harness.ts");
  const { isolatedEnv, tempProject } = await import("../test/support/cli.ts");
  const api = await startFakeApi({ scenario: { turns: [] } });
  const saved = process.env.KHAELOR_BIN;
  if (bin) process.env.KHAELOR_BIN = bin;
  else delete process.env.KHAELOR_BIN;
  const first: number[] = [];
  const composer: number[] = [];
  const ready: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const s = startPty([], { cwd: tempProject(), env: isolatedEnv(api.url), cols: 120, rows: 40 });
      try {
        await s.waitForText("KHAELOR", 30_000);
        first.push(performance.now() - t0);
        await s.waitForText("› ", 30_000);
        composer.push(performance.now() - t0);
        await s.waitForText("ask anything", 30_000);
        ready.push(performance.now() - t0);
        s.send("\x04");
        await s.exited;
      } finally {
        s.kill();
      }
    }
  } finally {
    if (saved === undefined) delete process.env.KHAELOR_BIN;
    else process.env.KHAELOR_BIN = saved;
    await api.close();
  }
  return {
    name: `app: startup of the real CLI ${bin ? "binary" : "from source"} in a pty (120x40, median of ${runs})`,
    firstFrameMs: Math.round(pct(first, 0.5)),
    composerTakesKeysMs: Math.round(pct(composer, 0.5)),
    sessionReadyMs: Math.round(pct(ready, 0.5)),
  };
}

/** The real CLI from source in a pseudo-terminal: bytes per answer byte of a streamed answer. */
async function ptySession(): Promise<Result> {
  const { startPty } = await import("../test/e2e/pty/harness.ts");
  const { isolatedEnv, tempProject } = await import("../test/support/cli.ts");
  const answer = longAnswer().slice(0, 12_000);
  const api = await startFakeApi({ scenario: { pacing: { textChunk: 16, delayMs: 2 }, turns: [{ content: [{ type: "text", text: answer + "\n\nEND-OF-ANSWER" }] }] } });
  const s = startPty([], { cwd: tempProject(), env: isolatedEnv(api.url), cols: 120, rows: 40 });
  try {
    await s.waitForText("ask anything", 30_000);
    const b0 = s.bytes();
    s.type("go\r");
    await s.waitFor(() => s.all().includes("END-OF-ANSWER") && s.screen().includes("ask anything") && !/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/.test(s.screen()), "the answer", 60_000);
    const streamed = s.bytes() - b0;
    s.send("\x04");
    await s.exited;
    return {
      name: "app: real CLI from source in a pty (120x40), 12 KB answer",
      bytesPerAnswerByte: +(streamed / Buffer.byteLength(answer)).toFixed(3),
    };
  } finally {
    s.kill();
    await api.close();
  }
}

export async function run(_opts: { json: boolean }): Promise<Result[]> {
  const out = [await streamedAnswer(), await keystrokeEcho(), await ptySession(), await startup(null)];
  // The compiled binary, when built (`bun run build`) or named by KHAELOR_BIN.
  const bin = process.env.KHAELOR_BIN ?? join(import.meta.dir, "..", "dist", "khaelor");
  if (existsSync(bin)) out.push(await startup(bin));
  return out;
}
