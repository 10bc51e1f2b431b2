// An in-process ModelClient that plays back assistant messages, for kernel tests where the HTTP
// layer is not the subject (the real client is tested against the fake server in test/model).
import { ModelError, type AssistantBlock, type ModelClient, type ModelEvent, type ModelRequest } from "../../src/model/types.ts";

export type ScriptStep = AssistantBlock[] | ModelError | ((req: ModelRequest) => AssistantBlock[] | ModelError) | { hang: true; partial: string };

export function scriptedModel(steps: ScriptStep[]): ModelClient & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  let n = 0;
  return {
    requests,
    async *stream(req: ModelRequest): AsyncIterable<ModelEvent> {
      requests.push(structuredClone({ ...req, signal: undefined }));
      let step = steps[n++] ?? [{ type: "text", text: "(script ended)" }];
      if (typeof step === "function") step = step(req);
      if (step instanceof ModelError) throw step;
      yield { type: "message_start", id: `msg_${n}`, model: req.model };
      if ("hang" in step) {
        yield { type: "text_delta", index: 0, text: step.partial };
        const partial = step.partial;
        await new Promise<void>((_, reject) => {
          const abort = () => reject(new ModelError("aborted", "aborted", null, [{ type: "text", text: partial }]));
          if (req.signal?.aborted) abort();
          req.signal?.addEventListener("abort", abort, { once: true });
        });
        return;
      }
      for (const [index, block] of step.entries()) {
        if (block.type === "text") yield { type: "text_delta", index, text: block.text };
        yield { type: "block_done", index, block };
      }
      const hasTool = step.some((b) => b.type === "tool_use");
      yield {
        type: "message_done",
        message: {
          id: `msg_${n}`,
          model: req.model,
          content: step,
          stop_reason: hasTool ? "tool_use" : "end_turn",
          usage: { input_tokens: 100, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
        },
      };
    },
  };
}
