// The host's stdin, line by line, each at most MAX_MESSAGE_BYTES: a longer one is reported (and a
// control request refused by its id, when its start shows it) instead of held whole or sent to the
// model; a line that is not one of ours is reported and reading goes on.
import type { UserBlock } from "../../model/types.ts";
import { jsonLines, leadingFields, tooLargeMessage } from "../../stdio/json-lines.ts";
import { textOf, userContent } from "./content.ts";
import { parseInputLine, type ControlRequestLine, type ControlResponseLine } from "./wire.ts";

export type InputHandlers = {
  /** `uuid`: the host's own id for the message (the SDK's), to be its id in the log. */
  user(content: string | UserBlock[], uuid: string | undefined): void;
  control(line: ControlRequestLine): void;
  response(line: ControlResponseLine, lineNo: number): void;
  /** A line that could not be taken (or only in part), by its number. */
  invalid(lineNo: number, error: string): void;
  /** Refuses a control request whose line was too large, by its id. */
  refuse(requestId: string, error: string): void;
  /** True once reading should stop (a stop signal). */
  stopped(): boolean;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function readHostInput(input: AsyncIterable<Uint8Array>, on: InputHandlers): Promise<void> {
  let lineNo = 0;
  for await (const l of jsonLines(input)) {
    lineNo++;
    if (l.kind === "too_large") {
      const why = tooLargeMessage(l.bytes);
      const { values } = leadingFields(l.head);
      const requestId = values.get("type") === "control_request" ? values.get("request_id") : undefined;
      if (typeof requestId === "string") on.refuse(requestId, why);
      on.invalid(lineNo, why);
      continue;
    }
    const raw = l.text;
    if (!raw.trim()) continue;
    const parsed = parseInputLine(raw);
    switch (parsed.kind) {
      case "user": {
        const { content, skipped } = userContent(parsed.line.message.content);
        if (skipped.length > 0) on.invalid(lineNo, `content blocks of type ${skipped.join(", ")} are not supported; sent without them`);
        const uuid = parsed.line.uuid;
        const named = uuid !== undefined && UUID.test(uuid);
        if (uuid !== undefined && !named) on.invalid(lineNo, `uuid ${JSON.stringify(uuid.slice(0, 80))} is not a UUID; the message gets an id of its own`);
        if (textOf(content).trim() || Array.isArray(content)) on.user(content, named ? uuid.toLowerCase() : undefined);
        break;
      }
      case "control_request":
        on.control(parsed.line);
        break;
      case "control_response":
        on.response(parsed.line, lineNo);
        break;
      case "invalid":
        on.invalid(lineNo, parsed.error);
        break;
    }
    if (on.stopped()) break;
  }
}
