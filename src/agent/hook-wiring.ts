// Where the session's hooks meet the loop: the stop policies (a hook's continue:false first, the
// built-in checks, then Stop hooks), compaction with PreCompact and SessionStart("compact"), the
// SessionStart context for the first prompt, and the Notification hook before every question.
import type { EventBus } from "../events/bus.ts";
import { hookStopPolicy, stopHookPolicy, type HookTurn } from "../hooks/attach.ts";
import type { HookService } from "../hooks/hooks.ts";
import type { ConversationContext, LoopPolicy } from "../kernel/types.ts";
import { doomLoopPolicy } from "../policy/doom-loop.ts";
import { verifyOnStopPolicy } from "../policy/verify-on-stop.ts";
import type { Asker, SessionOptions } from "./types.ts";

type Compactable = ConversationContext & { compact(trigger: "auto" | "manual" | "overflow", signal?: AbortSignal, instructions?: string): Promise<boolean> };

export type HookWiring = {
  policies: LoopPolicy[];
  /** The model's view, with PreCompact and SessionStart("compact") around every compaction. */
  context: Compactable;
  /** The signal of the turn in flight: Stop and PreCompact hooks stop with it. */
  setTurnSignal(signal: AbortSignal): void;
  /** SessionStart's output, once: context for the next prompt. */
  takeStartContext(): string[];
  /** Runs SessionStart for a session opened with deferStart (else nothing). */
  start(): Promise<void>;
};

export type HookWiringOptions = {
  service: HookService;
  hookTurn: HookTurn;
  bus: EventBus;
  context: Compactable;
  cwd: string;
  model: () => string;
  resumed: boolean;
  opts: Pick<SessionOptions, "verifyNudge" | "doomLoop" | "deferStart" | "startSource">;
  /** SessionStart's messages for the user. */
  notices: string[];
};

export async function wireHooks(o: HookWiringOptions): Promise<HookWiring> {
  const { service, bus } = o;
  // A hook's continue:false is asked first: a turn it stopped sends nobody back to work.
  const policies: LoopPolicy[] = [hookStopPolicy(o.hookTurn)];
  if (o.opts.verifyNudge ?? true) policies.push(verifyOnStopPolicy(o.cwd));
  if (o.opts.doomLoop ?? true) policies.push(doomLoopPolicy());
  // Stop hooks are asked after the built-in verification: when it sends the model back, they wait for the next stop.
  let turnSignal: AbortSignal = new AbortController().signal;
  // Stop hooks read the answer they judge (Claude Code's last_assistant_message).
  let lastAnswer = "";
  bus.subscribe((e) => {
    if (e.type === "assistant_message") lastAnswer = e.message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  });
  policies.push(stopHookPolicy(service, () => turnSignal, () => lastAnswer));

  const startContext: string[] = [];
  const collectStart = async (): Promise<string[]> => {
    if (!service.has("SessionStart")) return [];
    const said = bus.subscribe((e) => {
      if (e.type === "hook_end" && e.message) o.notices.push(e.message);
    });
    const source = o.resumed ? "resume" : (o.opts.startSource ?? "startup");
    const r = await service.run("SessionStart", source, { source, model: o.model() }, new AbortController().signal);
    said();
    return r.context;
  };
  // PreCompact hears every compaction, the kernel's automatic ones too.
  const compact = async (trigger: "auto" | "manual" | "overflow", signal?: AbortSignal, instructions?: string): Promise<boolean> => {
    const manual = trigger === "manual" ? "manual" : "auto";
    await service.run("PreCompact", manual, { trigger: manual, custom_instructions: instructions ?? "" }, signal ?? turnSignal);
    const done = await o.context.compact(trigger, signal, instructions);
    // As in Claude Code, the session starts again from the summary: SessionStart hears "compact",
    // and what it prints goes to the model with the next prompt, as at startup.
    if (done && service.has("SessionStart")) startContext.push(...(await service.run("SessionStart", "compact", { source: "compact", model: o.model() }, signal ?? turnSignal)).context);
    return done;
  };
  // SessionStart's output is context for the model's first turn.
  let started = !o.opts.deferStart;
  if (started) startContext.push(...(await collectStart()));
  return {
    policies,
    context: { messages: () => o.context.messages(), needsCompaction: () => o.context.needsCompaction(), compact },
    setTurnSignal: (s) => void (turnSignal = s),
    takeStartContext: () => startContext.splice(0),
    async start() {
      if (started) return;
      started = true;
      startContext.push(...(await collectStart()));
    },
  };
}

/** The mode's Asker with the Notification hook before each question (a desktop notifier), not waited for. */
export function notifyingAsker(service: HookService, asker: Asker | undefined): Asker | undefined {
  if (!asker) return undefined;
  return (req, signal) => {
    void service.run("Notification", "permission_prompt", { message: `KHAELOR needs your permission to use ${req.call.name}`, notification_type: "permission_prompt" }, signal);
    return asker(req, signal);
  };
}
