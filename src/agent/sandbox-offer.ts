// After a bash command the sandbox blocked (a write outside, a denied host), the app offers, with
// one key, to allow that path or domain for the session, or to run this one command outside the
// sandbox; either way the command runs again and the model reads the second result, told why.
// Only an Asker that knows the offer hears it (the app); elsewhere the model reads the first result,
// which says the command can be run outside with dangerouslyDisableSandbox (the gate then asks, or
// in print mode refuses unless a rule allows it).
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { ToolOutcome, ToolRuntime } from "../tools/types.ts";
import type { Asker } from "./types.ts";

export function sandboxOffers(runtime: ToolRuntime, sandbox: () => Sandbox | null, ask: Asker): ToolRuntime {
  return {
    ...runtime,
    async prepare(call, ctx) {
      const p = await runtime.prepare(call, ctx);
      // A confined command, as its tool says (bash, a process start).
      if (!p.ok || p.facts.command === undefined || p.facts.outsideSandbox) return p;
      const command = p.facts.command;
      return {
        ...p,
        async run(): Promise<ToolOutcome> {
          const sb = sandbox();
          const earlier = sb?.lastBlocked();
          const r = await p.run();
          // Blocked during this call: a process start returns while its command still runs, and what
          // was blocked before it (the same command run by bash, say) is not this call's.
          const blocked = sb?.lastBlocked();
          if (!sb || !blocked || blocked === earlier || blocked.line !== command || ctx.signal.aborted) return r;
          const what = blocked.write !== undefined ? `writes to ${blocked.shown}` : `the network to ${blocked.shown}`;
          const answer = await ask(
            {
              call,
              summary: `blocked by the sandbox: ${blocked.write !== undefined ? "write to" : "network to"} ${blocked.shown}`,
              reason: `the command ran confined and the sandbox stopped it`,
              preview: p.preview,
              sandboxOffer: { blocked: blocked.shown, grant: `allow ${what} for this session`, outside: sb.settings.allowUnsandboxedCommands },
            },
            ctx.signal,
          );
          if (!answer.allow || !answer.offer || ctx.signal.aborted) return r;
          if (answer.offer === "outside" && !sb.settings.allowUnsandboxedCommands) return r;
          if (answer.offer === "grant") sb.grant(blocked.write !== undefined ? { write: blocked.write } : { domain: blocked.domain! });
          const again = answer.offer === "grant" ? call : { ...call, input: { ...(call.input as object), dangerouslyDisableSandbox: true } };
          const second = await runtime.prepare(again, ctx);
          if (!second.ok) return r;
          const out = await second.run();
          const why = answer.offer === "grant" ? `The sandbox blocked this command; the user allowed ${what} for this session and it ran again` : "The sandbox blocked this command; the user had it run once outside the sandbox";
          return { ...out, content: prefixed(`[${why}:]\n`, out.content) };
        },
      };
    },
  };
}

function prefixed(head: string, content: ToolOutcome["content"]): ToolOutcome["content"] {
  if (typeof content === "string") return head + content;
  return [{ type: "text", text: head.trimEnd() }, ...content];
}
