// The kernel's only view of the tools. Whatever a call does wrong — an unknown tool, bad input, an
// exception — comes back as an error outcome the model can read and correct; nothing throws.
import { z } from "zod";
import type { JsonSchema, ToolSpec } from "../model/types.ts";
import { callFacts } from "./facts.ts";
import type { SearchGuard, Tool, ToolContext, ToolOutcome, ToolPlan, ToolPreview, ToolResult, ToolRuntime } from "./types.ts";

function toJsonSchema(schema: z.ZodType): JsonSchema {
  const js = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete js.$schema;
  return { ...(dropSafeIntegerBounds(js) as Record<string, unknown>), type: "object" } as JsonSchema;
}

/** zod writes ±2^53-1 bounds on every .int(); they only cost the model tokens. */
function dropSafeIntegerBounds(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropSafeIntegerBounds);
  if (!v || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if ((k === "maximum" || k === "minimum") && Math.abs(x as number) === Number.MAX_SAFE_INTEGER) continue;
    out[k] = dropSafeIntegerBounds(x);
  }
  return out;
}

/** "file_path: expected string; replace_all: expected boolean" — names fields, never echoes values. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const path = i.path.map(String).join(".") || "(input)";
      if (i.code === "invalid_type") {
        // zod's message names the received type ("received number"), never the value.
        const received = /received (\w+)/.exec(i.message)?.[1];
        if (received === "undefined") return `${path}: required field is missing`;
        return `${path}: expected ${i.expected}${received ? `, got ${received}` : ""}`;
      }
      if (i.code === "unrecognized_keys") return `unknown field${i.keys.length > 1 ? "s" : ""} ${i.keys.join(", ")}`;
      if (i.code === "invalid_value") return `${path}: must be one of ${i.values.map((v) => JSON.stringify(v)).join(", ")}`;
      if (i.code === "too_small") return `${path}: must be at least ${String(i.minimum)}${i.origin === "string" ? " characters long" : ""}`;
      if (i.code === "too_big") return `${path}: must be at most ${String(i.maximum)}`;
      return `${path}: ${i.message}`;
    })
    .join("; ");
}

export type ToolRuntimeOptions = {
  /** Tools that come and go during the session (MCP servers connecting, restarting); a new array when they change. */
  dynamic?: () => Tool[];
  /** Given to every call, so grep and glob over a directory leave out what the rules hide. */
  searchGuard?: SearchGuard;
};

export function createToolRuntime(fixed: Tool[], opts: ToolRuntimeOptions = {}): ToolRuntime {
  for (const t of fixed) if (!t.prepare && !t.run) throw new Error(`tool ${t.name} has neither prepare nor run`);
  const specOf = (t: Tool): ToolSpec => ({ name: t.name, description: t.description, input_schema: t.jsonSchema ?? toJsonSchema(t.inputSchema) });
  const fixedSpecs = fixed.map(specOf);
  let byNameNow = new Map(fixed.map((t) => [t.name, t]));
  let specsNow: ToolSpec[] = fixedSpecs;
  let namesNow = fixed.map((t) => t.name);
  let seen: Tool[] | null = null;
  /** Rebuilt only when the dynamic list is a new array, so a stable list costs nothing per call. */
  const refresh = () => {
    const extra = opts.dynamic?.();
    if (!extra || extra === seen) return;
    seen = extra;
    const own = new Set(fixed.map((t) => t.name));
    const all = [...fixed, ...extra.filter((t) => !own.has(t.name))];
    byNameNow = new Map(all.map((t) => [t.name, t]));
    specsNow = [...fixedSpecs, ...all.slice(fixed.length).map(specOf)];
    namesNow = all.map((t) => t.name);
  };
  const byName = { get: (name: string) => (refresh(), byNameNow.get(name)) };
  const specs = () => (refresh(), specsNow);
  const names = () => (refresh(), namesNow);

  const parse = (tool: Tool, input: unknown) => tool.inputSchema.safeParse(input ?? {});
  const outcome = (kind: ToolOutcome["kind"], r: ToolResult, summary: string, t0: number): ToolOutcome => ({
    kind,
    content: r.content,
    isError: kind !== "ok" || !!r.isError,
    summary,
    ...(r.display ? { display: r.display } : {}),
    ...(r.response !== undefined ? { response: r.response } : {}),
    durationMs: performance.now() - t0,
  });
  const thrown = (tool: Tool, e: unknown): ToolResult => ({ content: `${tool.name} failed: ${e instanceof Error ? e.message : String(e)}` });

  const prepare: ToolRuntime["prepare"] = async (call, ctx) => {
    const t0 = performance.now();
    const tool = byName.get(call.name);
    const facts = tool ? callFacts(tool, call.name, call.input, ctx.workspace.cwd) : undefined;
    const failed = (kind: ToolOutcome["kind"], r: ToolResult, summary: string) => ({ ok: false as const, call, outcome: outcome(kind, r, summary, t0), ...(facts ? { facts } : {}) });
    if (!tool || !facts) return failed("unknown_tool", { content: `Unknown tool "${call.name}". Available tools: ${names().join(", ")}.` }, `unknown tool ${call.name}`);
    const p = parse(tool, call.input);
    if (!p.success) return failed("invalid_input", { content: `Invalid input for ${tool.name}: ${describeIssues(p.error)}. Fix these fields and call it again.` }, `${tool.name} (invalid input)`);
    const summary = safeSummary(tool, p.data);
    const searchGuard = ctx.searchGuard ?? opts.searchGuard;
    const full: ToolContext = { ...ctx, toolUseId: call.id, ...(searchGuard ? { searchGuard } : {}) };
    let plan: ToolPlan;
    try {
      plan = tool.prepare ? await tool.prepare(p.data, full) : { run: () => tool.run!(p.data, full) };
    } catch (e) {
      return failed("error", thrown(tool, e), summary);
    }
    if ("failure" in plan) return failed("error", plan.failure, summary);
    const preview = plan.preview ?? previewOf(tool, p.data);
    return {
      ok: true,
      call,
      summary,
      readOnly: tool.readOnly,
      destructive: tool.destructive,
      facts,
      ...(preview ? { preview } : {}),
      async run() {
        const t1 = performance.now();
        let o: ToolOutcome;
        try {
          const r = await plan.run();
          o = outcome(r.isError ? "error" : "ok", r, summary, t1);
        } catch (e) {
          o = outcome("error", thrown(tool, e), summary, t1);
        }
        return o.isError && full.signal.aborted ? { ...o, interrupted: true } : o;
      },
    };
  };

  return {
    specs,
    names,
    prepare,

    async execute(call, ctx) {
      const p = await prepare(call, ctx);
      return p.ok ? p.run() : p.outcome;
    },

    describe(call) {
      const tool = byName.get(call.name);
      if (!tool) return null;
      const p = parse(tool, call.input);
      const summary = p.success ? safeSummary(tool, p.data) : `${tool.name} (invalid input)`;
      return { readOnly: tool.readOnly, destructive: tool.destructive, summary, valid: p.success, ...(tool.concurrent ? { concurrent: true } : {}) };
    },
  };
}

/** A tool's preview for a call it runs without a plan (a command, a path); a broken one is no preview. */
function previewOf(tool: Tool, input: unknown): ToolPreview | undefined {
  try {
    return tool.preview?.(input);
  } catch {
    return undefined;
  }
}

function safeSummary(tool: Tool, input: unknown): string {
  try {
    return tool.summarize(input);
  } catch {
    return tool.name;
  }
}
