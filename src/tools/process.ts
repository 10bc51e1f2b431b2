import { z } from "zod";
import { statSync } from "node:fs";
import { KEYS, type KeyName, type ProcessInfo, type ReadResult } from "../workspace/process-registry.ts";
import { WaitPatternError, waitPattern, type WaitPattern } from "../workspace/wait-pattern.ts";
import { RESULT_BUDGET_CHARS, cleanOutput, fitToBudget } from "./output-budget.ts";
import { displayPath, fail, localWorkspace, ok, withAdvice, withNotes } from "./results.ts";
import type { Tool } from "./types.ts";
import description from "./process.md" with { type: "text" };

const MAX_WAIT_MS = 600_000;
const SIGNALS = ["TERM", "KILL", "INT", "HUP", "QUIT", "USR1", "USR2"] as const;
const KEY_NAMES = Object.keys(KEYS) as [KeyName, ...KeyName[]];

// One flat object (the Messages API wants an object schema at the top); which fields an action
// needs is checked in run(), with an error naming the missing field.
const schema = z.object({
  action: z.enum(["start", "list", "read", "write", "stop"]),
  command: z.string().min(1).optional(),
  name: z.string().optional(),
  cwd: z.string().optional(),
  id: z.string().optional(),
  tail: z.number().int().min(1).optional(),
  since: z.number().int().min(0).optional(),
  wait_for: z.string().optional(),
  timeout: z.number().int().min(1).max(MAX_WAIT_MS).optional(),
  input: z.string().optional(),
  keys: z.array(z.enum(KEY_NAMES)).optional(),
  signal: z.enum(SIGNALS).optional(),
  /** start: run it outside the sandbox (the gate always asks). */
  dangerouslyDisableSandbox: z.boolean().optional(),
});
type Input = z.infer<typeof schema>;

function describeState(p: ProcessInfo): string {
  if (p.state === "running") return "running";
  return p.signal ? `killed by ${p.signal}` : `exited with code ${p.exitCode}`;
}

const uptime = (ms: number) => (ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.floor(ms / 60_000)}m${Math.floor((ms % 60_000) / 1000)}s`);

export const processTool: Tool<Input> = {
  name: "process",
  description,
  inputSchema: schema,
  readOnly: false,
  destructive: true,
  claudeName: "Process",
  kind: "execute",
  // list and read only look at processes this session started.
  reach: (i) => ({
    paths: [],
    ...(i.action === "start" && i.command ? { command: i.command, ...(i.dangerouslyDisableSandbox ? { outsideSandbox: true as const } : {}) } : {}),
    ...(i.action === "list" || i.action === "read" ? { access: "read" as const } : {}),
  }),
  preview: (i) => ({ detail: i.command ? { label: `${i.action} process`, text: i.command } : { label: "process", text: `${i.action} ${i.id ?? ""}`.trim() } }),
  summarize: (i) => {
    if (i.action === "start") return `process start${i.name ? ` ${i.name}` : ""}: ${i.command ?? ""}`.slice(0, 100);
    if (i.action === "list") return "process list";
    if (i.action === "write") return `process write ${i.id ?? ""}: ${[i.input !== undefined ? JSON.stringify(i.input).slice(0, 60) : "", ...(i.keys ?? [])].filter(Boolean).join(" ")}`;
    return `process ${i.action} ${i.id ?? ""}${i.wait_for ? ` (wait for /${i.wait_for}/)` : ""}`;
  },
  async run(input, ctx) {
    const ws = localWorkspace(ctx);
    const reg = ws.processes;
    const need = <K extends keyof Input>(k: K): NonNullable<Input[K]> => {
      const v = input[k];
      if (v === undefined) throw new MissingField(String(k));
      return v as NonNullable<Input[K]>;
    };
    try {
      switch (input.action) {
        case "start": {
          const command = need("command");
          const cwd = input.cwd ? ws.resolve(input.cwd) : ws.cwd;
          try {
            if (!statSync(cwd).isDirectory()) return fail(`cwd ${displayPath(ws, cwd)} is not a directory.`);
          } catch {
            return fail(`cwd ${displayPath(ws, cwd)} does not exist.`);
          }
          const confine = input.dangerouslyDisableSandbox ? undefined : ws.confine;
          const p = reg.start({ command, cwd, ...(input.name !== undefined ? { name: input.name } : {}), ...(confine ? { confine } : {}) });
          const started = withAdvice(`Started ${p.name ? `"${p.name}" as ` : ""}${p.id} (pid ${p.pid}) in ${cwd === ws.root ? "the project root" : displayPath(ws, cwd)}.`, `Read its output with action=read id=${p.name ?? p.id} (wait_for a ready message), stop it with action=stop.`);
          return ok(started.text, started.display);
        }
        case "list": {
          const all = reg.list();
          if (all.length === 0) {
            const none = withAdvice("No processes.", "Start one with action=start.");
            return ok(none.text, none.display);
          }
          const rows = all.map((p) => `${p.id}\t${p.name ?? "-"}\tpid ${p.pid}\t${describeState(p)}\tup ${uptime(p.uptimeMs)}\t${p.bytes} bytes\t${p.command.split("\n")[0]!.slice(0, 80)}`);
          return ok(`id\tname\tpid\tstate\tuptime\toutput\tcommand\n${rows.join("\n")}`);
        }
        case "read": {
          const id = need("id");
          let waitFor: WaitPattern | undefined;
          if (input.wait_for !== undefined) {
            try {
              waitFor = waitPattern(input.wait_for);
            } catch (e) {
              return fail(`wait_for is not a valid regex: ${(e as Error).message}`);
            }
          }
          let r: ReadResult;
          try {
            r = await reg.read(id, {
              ...(input.tail !== undefined ? { tail: input.tail } : {}),
              ...(input.since !== undefined ? { since: input.since } : {}),
              ...(waitFor ? { waitFor } : {}),
              timeoutMs: input.timeout ?? 30_000,
              signal: ctx.signal,
            });
          } catch (e) {
            if (e instanceof WaitPatternError) return fail(e.message);
            throw e;
          } finally {
            waitFor?.close?.();
          }
          const label = r.info.name ? `${r.info.name} (${r.info.id})` : r.info.id;
          const state = describeState(r.info);
          const notes: string[] = [`${label} ${state}`, `offset ${r.offset}`];
          // The user hears of a wait that failed and a process that ended, not of offsets.
          const userNotes: string[] = [];
          if (waitFor) {
            const wait = r.matched
              ? null
              : r.timedOut
                ? `/${input.wait_for}/ did not appear within ${input.timeout ?? 30_000} ms`
                : ctx.signal.aborted
                  ? "the wait was cancelled"
                  : `/${input.wait_for}/ did not appear before the process ended`;
            notes.unshift(wait ?? `/${input.wait_for}/ appeared`);
            if (wait) userNotes.push(wait);
          }
          if (r.info.state !== "running") userNotes.push(`the process ${state}`);
          if (r.dropped > 0) {
            notes.push(`${r.dropped} older characters were dropped from the buffer`);
            userNotes.push(`${r.dropped} older characters were dropped from the buffer`);
          }
          const body = fitToBudget(cleanOutput(r.text), ws.spill, `process-${r.info.id}`, RESULT_BUDGET_CHARS);
          const { text, display } = withNotes(body.text === "" ? "(no new output)" : body.text.replace(/\n$/, ""), notes, userNotes);
          return waitFor && !r.matched ? fail(text, display) : ok(text, display);
        }
        case "write": {
          const id = need("id");
          const keys = input.keys ?? [];
          if (input.input === undefined && keys.length === 0) return fail('action=write needs "input" (text to type) or "keys" (e.g. ["Ctrl-C"]).');
          reg.write(id, input.input ?? "", keys);
          const what = [input.input !== undefined ? `${input.input.length} characters` : "", keys.join(" ")].filter(Boolean).join(" then ");
          const typed = withAdvice(`Typed ${what} into ${id}'s terminal.`, "Read its answer with action=read (wait_for its prompt).");
          return ok(typed.text, typed.display);
        }
        case "stop": {
          const id = need("id");
          const before = reg.get(id);
          const p = await reg.stop(id, `SIG${input.signal ?? "TERM"}` as NodeJS.Signals);
          if (before && before.state !== "running") return ok(`${id} had already ${describeState(p)}.`);
          return ok(`Stopped ${p.name ? `${p.name} (${p.id})` : p.id}: ${describeState(p)} after ${uptime(p.uptimeMs)}.`);
        }
      }
    } catch (e) {
      if (e instanceof MissingField) return fail(`action=${input.action} needs the field "${e.field}".`);
      return fail((e as Error).message);
    }
  },
};

class MissingField extends Error {
  constructor(readonly field: string) {
    super(field);
  }
}
