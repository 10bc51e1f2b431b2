// Highlight queries from the grammars' own npm packages, embedded as text so they ship inside the
// compiled binary. Combined as each package's tree-sitter.json "highlights" list says: TypeScript
// and TSX put their own patterns first and then JavaScript's (from the copy tree-sitter-typescript
// depends on); C++ puts C's first. (Precedence between patterns: see highlighter.ts.)
import type { GrammarName } from "../../../assets/tree-sitter.ts";
import bash from "../../../../node_modules/tree-sitter-bash/queries/highlights.scm" with { type: "text" };
import cSharp from "../../../../node_modules/tree-sitter-c-sharp/queries/highlights.scm" with { type: "text" };
import cForCpp from "../../../../node_modules/tree-sitter-cpp/node_modules/tree-sitter-c/queries/highlights.scm" with { type: "text" };
import cpp from "../../../../node_modules/tree-sitter-cpp/queries/highlights.scm" with { type: "text" };
import css from "../../../../node_modules/tree-sitter-css/queries/highlights.scm" with { type: "text" };
import go from "../../../../node_modules/tree-sitter-go/queries/highlights.scm" with { type: "text" };
import java from "../../../../node_modules/tree-sitter-java/queries/highlights.scm" with { type: "text" };
import javascript from "../../../../node_modules/tree-sitter-javascript/queries/highlights.scm" with { type: "text" };
import javascriptJsx from "../../../../node_modules/tree-sitter-javascript/queries/highlights-jsx.scm" with { type: "text" };
import javascriptParams from "../../../../node_modules/tree-sitter-javascript/queries/highlights-params.scm" with { type: "text" };
import php from "../../../../node_modules/tree-sitter-php/queries/highlights.scm" with { type: "text" };
import python from "../../../../node_modules/tree-sitter-python/queries/highlights.scm" with { type: "text" };
import ruby from "../../../../node_modules/tree-sitter-ruby/queries/highlights.scm" with { type: "text" };
import rust from "../../../../node_modules/tree-sitter-rust/queries/highlights.scm" with { type: "text" };
import typescript from "../../../../node_modules/tree-sitter-typescript/queries/highlights.scm" with { type: "text" };
import jsForTs from "../../../../node_modules/tree-sitter-typescript/node_modules/tree-sitter-javascript/queries/highlights.scm" with { type: "text" };
import jsxForTs from "../../../../node_modules/tree-sitter-typescript/node_modules/tree-sitter-javascript/queries/highlights-jsx.scm" with { type: "text" };

export const highlightQueries: Record<GrammarName, string[]> = {
  bash: [bash],
  c_sharp: [cSharp],
  cpp: [cForCpp, cpp],
  css: [css],
  go: [go],
  java: [java],
  javascript: [javascript, javascriptJsx, javascriptParams],
  php: [php],
  python: [python],
  ruby: [ruby],
  rust: [rust],
  tsx: [typescript, jsxForTs, jsForTs],
  typescript: [typescript, jsForTs],
};

/** Fence info-string names (lower-cased first word) to grammars. */
const aliases: Record<string, GrammarName> = {
  sh: "bash", bash: "bash", shell: "bash", zsh: "bash", console: "bash", shellscript: "bash",
  cs: "c_sharp", csharp: "c_sharp", "c#": "c_sharp",
  c: "cpp", h: "cpp", cpp: "cpp", "c++": "cpp", cc: "cpp", cxx: "cpp", hpp: "cpp",
  css: "css",
  go: "go", golang: "go",
  java: "java",
  js: "javascript", javascript: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript", node: "javascript",
  php: "php",
  py: "python", python: "python", python3: "python", py3: "python",
  rb: "ruby", ruby: "ruby",
  rs: "rust", rust: "rust",
  ts: "typescript", typescript: "typescript", mts: "typescript", cts: "typescript",
  tsx: "tsx",
};

export function grammarForInfo(info: string): GrammarName | null {
  const word = info.trim().split(/[\s{,]/, 1)[0]?.toLowerCase() ?? "";
  return aliases[word] ?? null;
}

export function isDiffInfo(info: string): boolean {
  const word = info.trim().split(/\s/, 1)[0]?.toLowerCase() ?? "";
  return word === "diff" || word === "patch" || word === "udiff";
}
