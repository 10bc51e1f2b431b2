// The model's answers as the user counts them: one per turn, the turn's text blocks in order
// (the text before and after its tool calls), as markdown source. /copy reads them.
import type { Entry } from "./entry.ts";

/** The `n`th latest answer (1: the last), or null when there are not that many. */
export function nthLatestAnswer(entries: readonly Entry[], n: number): string | null {
  const answers: string[] = [];
  let current: string[] = [];
  const close = () => {
    if (current.length) answers.push(current.join("\n\n"));
    current = [];
  };
  for (const e of entries) {
    if (e.kind === "user" && !e.steering) close();
    else if (e.kind === "assistant" && e.text.trim() !== "") current.push(e.text);
  }
  close();
  return answers[answers.length - n] ?? null;
}
