// Key handling as functions of (state, actions, event), driven with a fake AppActions that records
// what the handlers asked for: no screen, no session service, no timers of the app's own.
import { afterEach, describe, expect, test } from "bun:test";
import type { InputEvent } from "../../../src/tui/app/app-input.ts";
import { composerInput, refreshChooser } from "../../../src/tui/app/composer-keys.ts";
import { liveZone } from "../../../src/tui/app/live-zone.ts";
import { pagerInput } from "../../../src/tui/app/pager-keys.ts";
import { permissionInput, typedAhead } from "../../../src/tui/app/permission-keys.ts";
import type { AppState, PermissionAsk } from "../../../src/tui/app/state.ts";
import { fakeSession, setup } from "../support/app-state.ts";
import type { AskAnswer } from "../../../src/agent/types.ts";
import { TranscriptPager } from "../../../src/tui/views/pager.ts";

const key = (name: string, mods: { ctrl?: boolean; alt?: boolean; shift?: boolean } = {}): InputEvent => ({ type: "key", name, ctrl: !!mods.ctrl, alt: !!mods.alt, shift: !!mods.shift });
const text = (t: string): InputEvent => ({ type: "text", text: t });

const busy = () => ({ abort: new AbortController(), kind: "turn" as const, startedAt: 0 });

describe("composer keys", () => {
  test("Ctrl-G asks for the editor and edits nothing itself", () => {
    const { state, actions, press } = setup();
    press(text("draft"), key("g", { ctrl: true }));
    expect(actions.edits).toBe(1);
    expect(state.composer.text).toBe("draft");
  });

  test("Enter submits the prompt through the actions and empties the composer; a blank prompt sends nothing", () => {
    const { state, actions, press } = setup();
    press(text("   "), key("enter"));
    expect(actions.submitted).toEqual([]);
    state.composer.setText("");
    press(text("fix the parser"), key("enter"));
    expect(actions.submitted).toEqual(["fix the parser"]);
    expect(state.composer.text).toBe("");
  });

  test("a built-in command with an image chip is not run and not sent: the prompt and its image stay, and the notice says why", () => {
    const { state, actions, press } = setup();
    press(text("/compact "));
    state.composer.attachImage({ name: "shot.png", mediaType: "image/png", bytes: Buffer.alloc(64), width: 10, height: 10 });
    press(key("enter"));
    expect(actions.submitted).toEqual([]);
    expect(state.composer.attachedImages().map((i) => i.name)).toEqual(["shot.png"]);
    expect(JSON.stringify(state.transcript.entries)).toContain("/compact does not take images");
  });

  test("Shift+Enter, Alt+Enter and Ctrl-J add a line instead of sending", () => {
    const { state, actions, press } = setup();
    press(text("a"), key("enter", { shift: true }), text("b"), key("enter", { alt: true }), text("c"), key("j", { ctrl: true }), text("d"));
    expect(state.composer.text).toBe("a\nb\nc\nd");
    expect(actions.submitted).toEqual([]);
  });

  test("idle Ctrl-C clears the prompt, then arms the exit, and a second press within 2 s exits", () => {
    const { clock, state, actions, press } = setup();
    press(text("draft"), key("c", { ctrl: true }));
    expect(state.composer.text).toBe("");
    expect(actions.exits).toEqual([]);
    press(key("c", { ctrl: true }));
    expect(actions.flashes).toEqual(["press Ctrl-C again to exit"]);
    clock.t += 2500;
    press(key("c", { ctrl: true }));
    expect(actions.exits).toEqual([]); // too late: armed again instead
    clock.t += 500;
    press(key("c", { ctrl: true }));
    expect(actions.exits).toEqual([0]);
  });

  test("Ctrl-C while the agent works interrupts, takes queued messages back into the prompt, and never arms the exit", () => {
    const { state, actions, press } = setup({ session: fakeSession(["queued one", "queued two"]), busy: busy(), queued: ["queued one", "queued two"] });
    press(text("typing"), key("c", { ctrl: true }));
    expect(actions.interrupts).toBe(1);
    expect(state.queued).toEqual([]);
    expect(state.composer.text).toBe("queued one\nqueued two\ntyping");
    expect(state.ctrlCAt).toBe(0);
    press(key("c", { ctrl: true }));
    expect(actions.exits).toEqual([]);
    expect(actions.interrupts).toBe(2);
  });

  test("Esc interrupts only while work runs", () => {
    const { state, actions, press } = setup();
    press(key("escape"));
    expect(actions.interrupts).toBe(0);
    state.busy = busy();
    press(key("escape"));
    expect(actions.interrupts).toBe(1);
  });

  test("idle, Esc twice on an empty prompt opens the rewind chooser; slower, or with text, it does not", () => {
    const { state, actions, press, clock } = setup();
    state.session!.rewind.points = () => [{ id: "m2", ts: clock.t, text: "second\nmore", images: 0 }, { id: "m1", ts: clock.t, text: "first", images: 1 }];
    press(key("escape"));
    expect(actions.flashes.at(-1)).toBe("Esc again to rewind to an earlier message");
    clock.t += 2000;
    press(key("escape"));
    expect(actions.choosers).toHaveLength(0);
    clock.t += 300;
    press(key("escape"));
    expect(actions.choosers[0]?.title).toContain("Rewind to before which message?");
    expect(actions.choosers[0]?.items.map((i) => i.label)).toEqual(["second …", "first [1 image]"]);
    // Esc Esc in one read (Alt+Esc) opens it too; not with text in the prompt.
    press(key("escape", { alt: true }));
    expect(actions.choosers).toHaveLength(2);
    state.composer.insert("draft");
    press(key("escape", { alt: true }));
    press(key("escape"));
    press(key("escape"));
    expect(actions.choosers).toHaveLength(2);
  });

  test("Shift-Tab cycles default → acceptEdits → plan, and into bypassPermissions only when the session started in it", () => {
    const { state, press } = setup();
    const modes: string[] = [];
    for (let i = 0; i < 3; i++) {
      press(key("tab", { shift: true }));
      modes.push(state.session!.permissionMode());
    }
    expect(modes).toEqual(["acceptEdits", "plan", "default"]);
    state.allowBypassCycle = true;
    press(key("tab", { shift: true }), key("tab", { shift: true }), key("tab", { shift: true }));
    expect(state.session!.permissionMode()).toBe("bypassPermissions");
  });

  test("Shift-Tab cycles into dontAsk only when the session started in it (flag or settings)", () => {
    const { state, press } = setup();
    const seen = new Set<string>();
    for (let i = 0; i < 4; i++) {
      press(key("tab", { shift: true }));
      seen.add(state.session!.permissionMode());
    }
    expect(seen.has("dontAsk")).toBe(false);
    state.allowDontAskCycle = true;
    const modes: string[] = [];
    for (let i = 0; i < 4; i++) {
      press(key("tab", { shift: true }));
      modes.push(state.session!.permissionMode());
    }
    expect(modes).toContain("dontAsk");
  });

  test("Shift-Tab before the session is open says so and changes nothing", () => {
    const { actions, press } = setup({ ready: false, session: null });
    press(key("tab", { shift: true }));
    expect(actions.flashes).toEqual(["the session is still opening"]);
  });

  test("Up and Down walk the prompt history and come back to the draft", () => {
    const { state, press } = setup();
    press(text("draft"), key("up"));
    expect(state.composer.text).toBe("second prompt");
    press(key("up"));
    expect(state.composer.text).toBe("first prompt");
    press(key("down"), key("down"));
    expect(state.composer.text).toBe("draft");
  });

  test("/ opens the command picker; Tab completes, Enter on a command submits it", () => {
    const { state, actions, press } = setup();
    press(text("/he"));
    expect(state.picker?.kind).toBe("slash");
    expect(state.picker?.items.map((i) => i.label)).toContain("/help");
    press(key("tab"));
    expect(state.composer.text).toBe("/help ");
    expect(state.picker).toBeNull();
    state.composer.setText("");
    press(text("/hel"), key("enter"));
    expect(actions.submitted).toEqual(["/help"]);
  });

  test("@ opens the file picker over the project's files; Tab puts the path in", () => {
    const { state, press } = setup();
    press(text("look at @zone"));
    expect(state.picker?.kind).toBe("file");
    expect(state.picker?.items[0]?.label).toBe("src/screen/zone.ts");
    press(key("tab"));
    expect(state.composer.text).toBe("look at @src/screen/zone.ts ");
  });

  test("a chooser owns the keys: typing filters, Esc clears the filter first, Enter picks", () => {
    const picked: string[] = [];
    let cancelled = 0;
    const items = [
      { label: "claude-opus", value: "opus" },
      { label: "claude-sonnet", value: "sonnet" },
    ];
    const { state, actions, press } = setup();
    state.picker = { kind: "choose", title: "Model", items: items.slice(), all: items, selected: 0, onPick: (v) => picked.push(v), onCancel: () => cancelled++, query: "" };
    press(text("son"));
    expect(state.picker?.items.map((i) => i.value)).toEqual(["sonnet"]);
    expect(state.composer.text).toBe("");
    press(key("escape"));
    expect(state.picker?.items.length).toBe(2);
    press(text("zzz"), key("enter"));
    expect(actions.flashes[0]).toContain('nothing matches "zzz"');
    press(key("escape"), key("down"), key("enter"));
    expect(picked).toEqual(["sonnet"]);
    expect(state.picker).toBeNull();
    expect(cancelled).toBe(0);
  });

  test("a chooser whose search found more (logs read while it is open) is refreshed: the filter typed and the item picked stay", () => {
    const found = [{ label: "fig tree", value: "s1" }];
    const search = (q: string) => found.filter((i) => i.label.includes(q));
    const { state, press } = setup();
    state.picker = { kind: "choose", items: found.slice(), all: found.slice(), selected: 0, onPick: () => {}, query: "", search };
    press(text("fig"));
    expect(state.picker?.items.map((i) => i.value)).toEqual(["s1"]);
    // Two more sessions read: one matches, newer, so it comes first; the pick stays on s1.
    found.unshift({ label: "fig jam", value: "s3" }, { label: "plum", value: "s2" });
    const p = state.picker;
    if (p?.kind !== "choose") throw new Error("no chooser");
    refreshChooser(p);
    expect(p.query).toBe("fig");
    expect(p.items.map((i) => i.value)).toEqual(["s3", "s1"]);
    expect(p.items[p.selected]?.value).toBe("s1");
    expect(p.all.map((i) => i.value)).toEqual(["s3", "s2", "s1"]);
  });

  test("a / typed into an unfiltered chooser steps it aside and starts a command", () => {
    let cancelled = 0;
    const items = [{ label: "a", value: "a" }];
    const { state, press } = setup();
    state.picker = { kind: "choose", items: items.slice(), all: items, selected: 0, onPick: () => {}, onCancel: () => cancelled++, query: "" };
    press(text("/sessions"));
    expect(cancelled).toBe(1);
    expect(state.composer.text).toBe("/sessions");
  });

  test("Ctrl-T opens the transcript pager, Ctrl-L redraws, Ctrl-D on an empty prompt exits", () => {
    const { state, actions, press } = setup();
    press(key("t", { ctrl: true }), key("l", { ctrl: true }));
    expect(actions.pagers).toEqual([undefined]);
    expect(actions.redraws).toBe(1);
    press(text("x"), key("left"), key("d", { ctrl: true }));
    expect(state.composer.text).toBe("");
    expect(actions.exits).toEqual([]);
    press(key("d", { ctrl: true }));
    expect(actions.exits).toEqual([0]);
  });
});

describe("permission keys", () => {
  let timers: AppState[] = [];
  afterEach(() => {
    for (const s of timers) if (s.guardTimer) clearTimeout(s.guardTimer);
    timers = [];
  });

  function withAsk(opts: { guarded: boolean; suggestion?: boolean }) {
    const env = setup({ busy: busy() });
    const answers: AskAnswer[] = [];
    const ask: PermissionAsk = {
      panel: { prompt: { toolName: "bash", summary: "bash: npm test", reason: "asks", alwaysRule: "Bash(npm test)", alwaysFiles: { local: ".khaelor/settings.local.json", user: "~/.config/khaelor/settings.json" } }, message: null, armed: !opts.guarded },
      resolve: (a) => answers.push(a),
      toolUseId: "t1",
      suggestion: opts.suggestion ?? true,
      shownAt: env.clock.t,
      guarded: opts.guarded,
    };
    env.state.ask = ask;
    timers.push(env.state);
    const press = (ev: InputEvent) => {
      if (!typedAhead(env.state, env.actions, ask, ev)) permissionInput(env.state, env.actions, ev, ask);
      else composerInput(env.state, env.actions, ev);
    };
    return { ...env, ask, answers, press };
  }

  test("y allows once, n denies, a saves the rule for the project, s for the session", () => {
    for (const [k, want] of [
      ["y", { allow: true }],
      ["n", { allow: false }],
      ["a", { allow: true, always: { scope: "local" } }],
      ["s", { allow: true, always: { scope: "session" } }],
    ] as const) {
      const { answers, press } = withAsk({ guarded: false });
      press(text(k));
      expect(answers).toEqual([want]);
    }
  });

  test("with no rule to save, the always keys answer nothing", () => {
    const { answers, press } = withAsk({ guarded: false, suggestion: false });
    press(text("a"));
    expect(answers).toEqual([]);
  });

  test("m types a message to deny with; Enter sends it", () => {
    const { answers, press, ask } = withAsk({ guarded: false });
    press(text("m"));
    expect(ask.panel.message).toBe("");
    press(text("use pnpm"));
    press(key("enter"));
    expect(answers).toEqual([{ allow: false, message: "use pnpm" }]);
  });

  test("Esc denies and interrupts the turn", () => {
    const { answers, actions, press } = withAsk({ guarded: false });
    press(key("escape"));
    expect(answers).toEqual([{ allow: false }]);
    expect(actions.interrupts).toBe(1);
  });

  test("keys typed in the prompt's first moments go to the composer, not to the prompt", () => {
    const { answers, state, ask, press } = withAsk({ guarded: true });
    press(text("s"));
    expect(answers).toEqual([]);
    expect(state.composer.text).toBe("s");
    expect(ask.panel.typedAhead).toBe(true);
  });

  test("several characters at once are never a one-key answer", () => {
    const { answers, state, press } = withAsk({ guarded: false });
    press(text("yes"));
    expect(answers).toEqual([]);
    expect(state.composer.text).toBe("yes");
  });

  test("Ctrl-T shows the prompt in full in the pager, even while guarded", () => {
    const { actions, press } = withAsk({ guarded: true });
    press(key("t", { ctrl: true }));
    expect(actions.pagers).toEqual([{ ofPrompt: true }]);
  });
});

describe("pager keys", () => {
  function withPager() {
    const env = setup();
    const pager = new TranscriptPager({ count: () => 50, text: (i) => `line ${i}`, layout: (i) => [{ spans: [{ text: `line ${i}` }] }] }, 80, 10, "transcript");
    pager.end();
    env.state.pager = { view: { cols: 80, rows: 10, draw() {}, close() {} }, pager, ofPrompt: false };
    return { ...env, pager, press: (ev: InputEvent) => pagerInput(env.state, env.actions, ev) };
  }

  test("q, Esc, Ctrl-T and Ctrl-C close the pager through the actions", () => {
    for (const ev of [text("q"), key("escape"), key("t", { ctrl: true }), key("c", { ctrl: true })]) {
      const { actions, press } = withPager();
      press(ev);
      expect(actions.closedPagers).toBe(1);
    }
  });

  test("keys typed ahead as one text event are each a command", () => {
    const { actions, pager, press } = withPager();
    const before = pager.render().map((r) => r.spans.map((s) => s.text).join(""));
    press(text("kkq"));
    expect(pager.render().map((r) => r.spans.map((s) => s.text).join(""))).not.toEqual(before);
    expect(actions.closedPagers).toBe(1);
  });

  test("/ starts a search whose text is typed into the query, not taken as commands", () => {
    const { actions, pager, press } = withPager();
    press(text("/"));
    press(text("line 3q"));
    expect(pager.search?.query).toBe("line 3q");
    expect(actions.closedPagers).toBe(0);
  });
});

describe("live zone", () => {
  test("no Working… line in the moment between an answer's end and its turn's: it would come and go, repainting the composer twice", () => {
    const { state } = setup({ ready: false, session: null, busy: busy(), lastEventAt: 1000 });
    state.transcript.apply({ id: "u1", ts: 0, type: "user_message", content: "go" }, 0);
    state.transcript.apply({ type: "message_start", id: "m1", model: "x" });
    state.transcript.apply({ type: "text_delta", index: 0, text: "The answer." }, 0);
    state.transcript.apply({
      type: "assistant_message",
      id: "a1",
      ts: 0,
      costUsd: 0,
      message: { id: "m1", model: "x", stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }, content: [{ type: "text", text: "The answer." }] },
    });
    state.committer.advance(state.transcript.entries, false);
    const shown = (now: number) => liveZone(state, { height: 20, now }).rows.map((r) => r.spans.map((s) => s.text).join("")).join("\n");
    expect(shown(1100)).not.toContain("Working…");
    expect(shown(1300)).toContain("Working…"); // the turn goes on with nothing to show: say so
  });

  test("is a function of the state: the same state gives the same rows and cursor, and nothing in it changes", () => {
    const { state, press } = setup({ ready: false, session: null });
    state.transcript.apply({ id: "u1", ts: 0, type: "user_message", content: "go" }, 0);
    state.transcript.apply({ type: "message_start", id: "m", model: "x" });
    state.transcript.apply({ type: "text_delta", index: 0, text: "Streaming **answer**\n\nstill going" }, 0);
    press(text("next question"));
    state.committer.advance(state.transcript.entries, false);
    const before = { committed: state.committer.committed, headRows: state.committer.headRows, streams: state.committer.streams.size, version: state.transcript.version };
    const a = liveZone(state, { height: 20, now: 0 });
    const b = liveZone(state, { height: 20, now: 0 });
    expect(b).toEqual(a);
    expect({ committed: state.committer.committed, headRows: state.committer.headRows, streams: state.committer.streams.size, version: state.transcript.version }).toEqual(before);
    const shown = a.rows.map((r) => r.spans.map((s) => s.text).join(""));
    expect(shown.join("\n")).toContain("still going");
    expect(shown.join("\n")).toContain("next question");
    expect(a.cursor).not.toBeNull();
  });
});
