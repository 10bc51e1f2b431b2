// Syntax highlighting of code: synchronous, deterministic and always available (plain TypeScript
// lexers, ./lexer.ts), so layout can colour a block the moment it has its text.
//
// Output is a list of tokens per line carrying the capture name, not a style: tokens are cached
// with the parsed block and the theme is applied at layout time.
import { initialState, lexLine, type LexState, type Token } from "./lexer.ts";
import { languages, type LanguageName } from "./languages.ts";

export type { Token };

function splitLines(code: string): string[] {
  const lines = code.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Tokens per line for a whole code block. */
export function highlightCode(name: LanguageName, code: string): Token[][] {
  const spec = languages[name];
  let state = initialState;
  return splitLines(code).map((line) => {
    const r = lexLine(spec, line, state);
    state = r.state;
    return r.tokens;
  });
}

/**
 * Highlighting for a code block that is still streaming: each call passes the block's complete
 * lines so far; only lines not seen before are lexed, starting from the state the last one left.
 * A line's tokens depend only on the lines before it, so they are the tokens the whole block gets.
 */
export class StreamingHighlighter {
  private key = "";
  private lines: string[] = [];
  private tokens: Token[][] = [];
  private state: LexState = initialState;

  highlight(name: LanguageName, key: string, complete: readonly string[]): Token[][] {
    const fullKey = name + "\0" + key;
    if (fullKey !== this.key || !this.isPrefix(complete)) this.reset(fullKey);
    const spec = languages[name];
    for (let r = this.lines.length; r < complete.length; r++) {
      const line = complete[r]!;
      const out = lexLine(spec, line, this.state);
      this.state = out.state;
      this.lines.push(line);
      this.tokens.push(out.tokens);
    }
    return this.tokens;
  }

  /** Complete lines of one streaming block only grow, so checking the newest known line suffices. */
  private isPrefix(complete: readonly string[]): boolean {
    const n = this.lines.length;
    return complete.length >= n && (n === 0 || complete[n - 1] === this.lines[n - 1]);
  }

  reset(key = ""): void {
    this.key = key;
    this.lines = [];
    this.tokens = [];
    this.state = initialState;
  }
}
