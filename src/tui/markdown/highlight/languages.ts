// Which lexer table a code fence's info string (or a file's extension) selects.
import { cpp, cSharp, go, java, rust } from "./lang-c.ts";
import { css, json, yaml } from "./lang-data.ts";
import { javascript, tsx, typescript } from "./lang-js.ts";
import { bash, php, python, ruby } from "./lang-script.ts";
import type { LanguageSpec } from "./lexer.ts";

export const languages = {
  bash,
  c_sharp: cSharp,
  cpp,
  css,
  go,
  java,
  javascript,
  json,
  php,
  python,
  ruby,
  rust,
  tsx,
  typescript,
  yaml,
} satisfies Record<string, LanguageSpec>;

export type LanguageName = keyof typeof languages;

/** Fence info-string names and file extensions (lower-cased first word) to languages. */
const aliases: Record<string, LanguageName> = {
  sh: "bash", bash: "bash", shell: "bash", zsh: "bash", console: "bash", shellscript: "bash", ksh: "bash",
  cs: "c_sharp", csharp: "c_sharp", "c#": "c_sharp",
  c: "cpp", h: "cpp", cpp: "cpp", "c++": "cpp", cc: "cpp", cxx: "cpp", hpp: "cpp", hh: "cpp", hxx: "cpp",
  css: "css", scss: "css", less: "css",
  go: "go", golang: "go",
  java: "java",
  js: "javascript", javascript: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript", node: "javascript",
  json: "json", jsonc: "json", json5: "json", jsonl: "json",
  php: "php",
  py: "python", python: "python", python3: "python", py3: "python", pyi: "python",
  rb: "ruby", ruby: "ruby",
  rs: "rust", rust: "rust",
  ts: "typescript", typescript: "typescript", mts: "typescript", cts: "typescript",
  tsx: "tsx",
  yaml: "yaml", yml: "yaml",
};

export function languageForInfo(info: string): LanguageName | null {
  const word = info.trim().split(/[\s{,]/, 1)[0]?.toLowerCase() ?? "";
  return aliases[word] ?? null;
}

export function isDiffInfo(info: string): boolean {
  const word = info.trim().split(/\s/, 1)[0]?.toLowerCase() ?? "";
  return word === "diff" || word === "patch" || word === "udiff";
}
