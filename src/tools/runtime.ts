// The kernel's only view of the tools. Whatever a call does wrong — an unknown tool, bad input, an
// exception — comes back as an error outcome the model can read and correct; nothing throws.
import { z } from "zod";
import type { JsonSchema, ToolSpec } from "../model/types.ts";
import type { SearchGuard, Tool, ToolCall, ToolContext, ToolOutcome, ToolRuntime } from "./types.ts";

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
  const specOf = (t: Tool): ToolSpec => ({ name: t.name, description: t.description, input_schema: t.jsonSchema ?? toJsonSchema(t.inputSchema) });
  const fixedSpecs = fixed.map(specOf);
  let byName = new Map(fixed.map((t) => [t.name, t]));
  let specs: ToolSpec[] = fixedSpecs;
  let names = fixed.map((t) => t.name);
  let seen: Tool[] | null = null;
  /** Rebuilt only when the dynamic list is a new array, so a stable list costs nothing per call. */
  const refresh = () => {
    const extra = opts.dynamic?.();
    if (!extra || extra === seen) return;
    seen = extra;
    const own = new Set(fixed.map((t) => t.name));
    const added = extra.filter((t) => !own.has(t.name));
    byName = new Map([...fixed, ...added].map((t) => [t.name, t]));
    specs = [...fixedSpecs, ...added.map(specOf)];
    names = [...fixed, ...added].map((t) => t.name);
  };
  const lookup = (name: string) => {
    refresh();
    return byName.get(name);
  };

  const parse = (tool: Tool, input: unknown) => tool.inputSchema.safeParse(input ?? {});

  return {
    specs: () => {
      refresh();
      return specs;
    },
    names: () => {
      refresh();
      return names;
    },

    describe(call) {
      const tool = lookup(call.name);
      if (!tool) return null;
      const p = parse(tool, call.input);
      const summary = p.success ? safeSummary(tool, p.data) : `${tool.name} (invalid input)`;
      return { readOnly: tool.readOnly, destructive: tool.destructive, summary, valid: p.success };
    },

    async precheck(call, ctx) {
      const tool = lookup(call.name);
      const p = tool?.precheck ? parse(tool, call.input) : null;
      if (!tool?.precheck || !p?.success) return null;
      const t0 = performance.now();
      try {
        const r = await tool.precheck(p.data, { ...ctx, toolUseId: call.id });
        if (!r) return null;
        return { kind: "error", content: r.content, isError: true, summary: safeSummary(tool, p.data), durationMs: performance.now() - t0 };
      } catch {
        return null; // the call itself will meet the problem and say it
      }
    },

    async execute(call: ToolCall, ctx: Omit<ToolContext, "toolUseId">): Promise<ToolOutcome> {
      const t0 = performance.now();
      const done = (kind: ToolOutcome["kind"], r: { content: ToolOutcome["content"]; isError?: boolean; display?: ToolOutcome["display"] }, summary: string): ToolOutcome => ({
        kind,
        content: r.content,
        isError: kind !== "ok" || !!r.isError,
        summary,
        ...(r.display ? { display: r.display } : {}),
        durationMs: performance.now() - t0,
      });
      const tool = lookup(call.name);
      if (!tool) {
        return done("unknown_tool", { content: `Unknown tool "${call.name}". Available tools: ${names.join(", ")}.` }, `unknown tool ${call.name}`);
      }
      const p = parse(tool, call.input);
      if (!p.success) {
        return done("invalid_input", { content: `Invalid input for ${tool.name}: ${describeIssues(p.error)}. Fix these fields and call it again.` }, `${tool.name} (invalid input)`);
      }
      const summary = safeSummary(tool, p.data);
      try {
        const searchGuard = ctx.searchGuard ?? opts.searchGuard;
        const r = await tool.run(p.data, { ...ctx, toolUseId: call.id, ...(searchGuard ? { searchGuard } : {}) });
        return done(r.isError ? "error" : "ok", r, summary);
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e);
        return done("error", { content: `${tool.name} failed: ${msg}` }, summary);
      }
    },
  };
}

function safeSummary(tool: Tool, input: unknown): string {
  try {
    return tool.summarize(input);
  } catch {
    return tool.name;
  }
}
