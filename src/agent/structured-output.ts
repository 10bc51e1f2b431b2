// --json-schema, as Claude Code does it (read from its requests to our fake API): a tool named
// StructuredOutput whose input schema is the user's schema. A call whose input does not match is an
// error result naming what is wrong (the model tries again); a matching one ends the turn at once,
// its input the result's `structured_output`. A model that ends its turn without calling it is sent
// back once with Claude Code's reminder.
import { z } from "zod";
import type { GateDecision, LoopPolicy, PermissionGate } from "../kernel/types.ts";
import type { JsonSchema } from "../model/types.ts";
import type { Tool } from "../tools/types.ts";

export const STRUCTURED_OUTPUT_TOOL = "StructuredOutput";
const ENFORCE = "[structured-output-enforce] You MUST call the StructuredOutput tool to complete this request. Call this tool now.";

export type StructuredOutput = {
  tool: Tool;
  policy: LoopPolicy;
  /** The matching object the model gave in this turn; undefined when it gave none. */
  value(): unknown;
  /** Lets the tool's calls through the gate: it changes nothing and was asked for by the user. */
  gate(inner: PermissionGate): PermissionGate;
};

/** Throws with a message to show when the schema itself cannot be compiled. */
export async function openStructuredOutput(schema: Record<string, unknown>): Promise<StructuredOutput> {
  // Loaded only with --json-schema: a session without one does not parse a schema compiler.
  const { default: Ajv } = await import("ajv");
  const ajv = new Ajv({ allErrors: true, strict: false });
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(schema);
  } catch (e) {
    throw new Error(`--json-schema is not a schema KHAELOR can check against: ${(e as Error).message}`);
  }
  let value: unknown;
  let reminded = false;
  const tool: Tool<unknown> = {
    name: STRUCTURED_OUTPUT_TOOL,
    description: "Use this tool to return your final response in the requested structured format. You MUST call this tool exactly once at the end of your response to provide the structured output.",
    inputSchema: z.unknown(),
    jsonSchema: schema as JsonSchema,
    readOnly: true,
    destructive: false,
    summarize: () => "structured output",
    run: async (input) => {
      if (!validate(input)) {
        const why = (validate.errors ?? []).map((e) => `${e.instancePath || "/"}: ${e.message ?? "is not valid"}`).join("; ");
        return { content: `Output does not match required schema: ${why}`, isError: true };
      }
      value = input;
      return { content: "Structured output provided successfully" };
    },
  };
  const policy: LoopPolicy = {
    onUserTurn: () => {
      value = undefined;
      reminded = false;
    },
    afterTools: () => (value !== undefined ? { kind: "stop", reason: "finished", message: "" } : { kind: "continue" }),
    onStop: () => {
      if (value !== undefined || reminded) return { kind: "continue" };
      reminded = true;
      return { kind: "nudge", text: ENFORCE, tag: "structured_output" };
    },
  };
  const allow: GateDecision = { allow: true };
  return {
    tool,
    policy,
    value: () => value,
    gate: (inner) => ({ authorize: (call, signal) => (call.call.name === STRUCTURED_OUTPUT_TOOL ? Promise.resolve(allow) : inner.authorize(call, signal)) }),
  };
}
