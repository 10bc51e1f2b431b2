// One web-tree-sitter runtime per process, grammars loaded lazily from the embedded wasm files.
import { Language, Parser } from "web-tree-sitter";
import { readFileSync } from "node:fs";
import { grammarFiles, treeSitterRuntimeFile, type GrammarName } from "./embedded.ts";

let init: Promise<void> | null = null;
const languages = new Map<GrammarName, Promise<Language>>();

function initRuntime(): Promise<void> {
  init ??= Parser.init({ wasmBinary: readFileSync(treeSitterRuntimeFile) } as object);
  return init;
}

export function loadGrammar(name: GrammarName): Promise<Language> {
  let lang = languages.get(name);
  if (!lang) {
    lang = initRuntime().then(() => Language.load(readFileSync(grammarFiles[name])));
    languages.set(name, lang);
  }
  return lang;
}

/** A fresh parser for a grammar. Parsers are cheap; callers may keep one. */
export async function createParser(name: GrammarName): Promise<Parser> {
  const lang = await loadGrammar(name);
  const parser = new Parser();
  parser.setLanguage(lang);
  return parser;
}

export type { GrammarName };
export { Language, Parser };
