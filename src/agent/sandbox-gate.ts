// What the sandbox changes in the gate's answer for bash and process starts. With
// autoAllowBashIfSandboxed, a command that will run confined runs without asking; deny rules, the
// hard-line floor and configured ask rules still hold (they are decided first, and a deny stays a
// deny). dangerouslyDisableSandbox asks every time (print mode: refused unless a rule allows), and
// never runs where sandbox.allowUnsandboxedCommands is false. An unavailable sandbox with
// failIfUnavailable refuses commands; without it they ask as they would with no sandbox.
import type { Decision } from "../permissions/index.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { ToolFacts } from "../tools/types.ts";

export type SandboxGate = { decide(facts: ToolFacts, ruled: Decision): Decision };

/** An ask that comes from a rule the user wrote, not from the engine's caution. */
const CONFIGURED = /^(user|project|local|session|cli):/;

export function sandboxGate(sandbox: Sandbox): SandboxGate {
  return {
    decide(facts, ruled) {
      // The command a call runs, as its tool says (bash, a process start); anything else is not the sandbox's.
      const c = facts.command === undefined ? null : { command: facts.command, outside: facts.outsideSandbox === true };
      if (!c || ruled.behavior === "deny") return ruled;
      const state = sandbox.state();
      if (state.kind === "off") return ruled;
      if (state.kind === "unavailable") {
        if (state.refuse) return { behavior: "deny", reason: `the sandbox is unavailable (${state.why}) and sandbox.failIfUnavailable is set, so no command runs; ${state.install}`, source: "sandbox" };
        return ruled;
      }
      if (c.outside) {
        if (!sandbox.settings.allowUnsandboxedCommands) return { behavior: "deny", reason: "commands run only inside the sandbox here (sandbox.allowUnsandboxedCommands is false); change the command or ask the user to allow the path or domain", source: "sandbox" };
        if (ruled.behavior === "allow" && (CONFIGURED.test(ruled.source) || ruled.source === "mode:bypassPermissions")) return ruled;
        return { behavior: "ask", reason: `runs outside the sandbox (dangerouslyDisableSandbox)${ruled.behavior === "ask" ? `; ${ruled.reason}` : ""}`, source: "sandbox" };
      }
      if (ruled.behavior === "allow") return ruled;
      if (CONFIGURED.test(ruled.source) || !sandbox.settings.autoAllowBashIfSandboxed || !sandbox.confines(c.command)) return ruled;
      return { behavior: "allow", reason: "runs confined in the sandbox (autoAllowBashIfSandboxed)", source: "sandbox" };
    },
  };
}
