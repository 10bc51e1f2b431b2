// What a host writes to `khaelor -p --input-format stream-json` (Claude Code's shape, as the Claude
// Agent SDK sends it): user messages, control requests, answers to our control requests. Checked
// with zod where it enters; anything else on a line is reported, never fatal.
import { z } from "zod";

const ContentBlock = z.looseObject({ type: z.string() });

export const UserLine = z.looseObject({
  type: z.literal("user"),
  message: z.looseObject({
    role: z.literal("user"),
    content: z.union([z.string(), z.array(ContentBlock)]),
  }),
  parent_tool_use_id: z.string().nullish(),
  session_id: z.string().optional(),
  uuid: z.string().optional(),
});
export type UserLine = z.infer<typeof UserLine>;

export const ControlRequestLine = z.looseObject({
  type: z.literal("control_request"),
  request_id: z.string().min(1),
  request: z.looseObject({ subtype: z.string() }),
});
export type ControlRequestLine = z.infer<typeof ControlRequestLine>;

export const ControlResponseLine = z.looseObject({
  type: z.literal("control_response"),
  response: z.union([
    z.looseObject({ subtype: z.literal("success"), request_id: z.string(), response: z.record(z.string(), z.unknown()).optional() }),
    z.looseObject({ subtype: z.literal("error"), request_id: z.string(), error: z.string() }),
  ]),
});
export type ControlResponseLine = z.infer<typeof ControlResponseLine>;

/** Lines that carry nothing for us (keep-alives, the SDK's housekeeping): read and dropped. */
const IGNORED = new Set(["keep_alive", "control_cancel_request", "update_environment_variables", "transcript_mirror"]);

export type InputLine =
  | { kind: "user"; line: UserLine }
  | { kind: "control_request"; line: ControlRequestLine }
  | { kind: "control_response"; line: ControlResponseLine }
  | { kind: "ignored" }
  | { kind: "invalid"; error: string };

export function parseInputLine(text: string): InputLine {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { kind: "invalid", error: `not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  const type = typeof data === "object" && data !== null && "type" in data ? (data as { type: unknown }).type : undefined;
  const check = <T>(schema: z.ZodType<T>, make: (line: T) => InputLine): InputLine => {
    const r = schema.safeParse(data);
    if (r.success) return make(r.data);
    return { kind: "invalid", error: `a ${String(type)} line ${r.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}` };
  };
  switch (type) {
    case "user":
      return check(UserLine, (line) => ({ kind: "user", line }));
    case "control_request":
      return check(ControlRequestLine, (line) => ({ kind: "control_request", line }));
    case "control_response":
      return check(ControlResponseLine, (line) => ({ kind: "control_response", line }));
    default:
      if (typeof type === "string" && IGNORED.has(type)) return { kind: "ignored" };
      return { kind: "invalid", error: type === undefined ? "a line without a type" : `unknown line type ${JSON.stringify(type)} (expected user, control_request or control_response)` };
  }
}
