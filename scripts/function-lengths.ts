// The house's size rules, measured by a parser rather than by eye: no function over 150 lines
// (its closures counted in it) and no file over 650.
//   bun run scripts/function-lengths.ts [--all]   lists what is over; --all lists every function over 80
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { Language, Parser, type Node } from "web-tree-sitter";

export const MAX_FUNCTION = 150;
export const MAX_FILE = 650;

const FUNCTIONS = new Set(["function_declaration", "method_definition", "arrow_function", "function_expression", "generator_function_declaration"]);

export type Measured = { file: string; name: string; line: number; lines: number };

export async function typescriptParser(): Promise<Parser> {
  const modules = join(import.meta.dir, "..", "node_modules");
  await Parser.init({ wasmBinary: readFileSync(join(modules, "web-tree-sitter", "web-tree-sitter.wasm")) } as object);
  const parser = new Parser();
  parser.setLanguage(await Language.load(readFileSync(join(modules, "@vscode", "tree-sitter-wasm", "wasm", "tree-sitter-typescript.wasm"))));
  return parser;
}

/** Every function in the source with its length in lines, nested ones too (each also counts in its parent). */
export function functionsIn(parser: Parser, file: string, source: string): Measured[] {
  const tree = parser.parse(source);
  if (!tree) return [];
  const out: Measured[] = [];
  const walk = (n: Node) => {
    if (FUNCTIONS.has(n.type)) out.push({ file, name: nameOf(n), line: n.startPosition.row + 1, lines: n.endPosition.row - n.startPosition.row + 1 });
    for (const c of n.namedChildren) if (c) walk(c);
  };
  walk(tree.rootNode);
  tree.delete();
  return out;
}

function nameOf(n: Node): string {
  const own = n.childForFieldName("name")?.text;
  if (own) return own;
  // An arrow or function expression is named by what it is assigned to or the property it is.
  const p = n.parent;
  const named = p && (p.type === "variable_declarator" || p.type === "pair" || p.type === "public_field_definition" || p.type === "assignment_expression") ? (p.childForFieldName("name") ?? p.childForFieldName("key") ?? p.childForFieldName("left"))?.text : undefined;
  return named ?? `(anonymous, line ${n.startPosition.row + 1})`;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

/** Files and functions over the limits, under `dir`. */
export async function measure(dir: string): Promise<{ functions: Measured[]; files: { file: string; lines: number }[] }> {
  const parser = await typescriptParser();
  const functions: Measured[] = [];
  const files: { file: string; lines: number }[] = [];
  for (const f of tsFiles(dir)) {
    const source = readFileSync(f, "utf8");
    const rel = relative(resolve(dir, ".."), f);
    files.push({ file: rel, lines: source.split("\n").length - (source.endsWith("\n") ? 1 : 0) });
    functions.push(...functionsIn(parser, rel, source));
  }
  return { functions: functions.sort((a, b) => b.lines - a.lines), files: files.sort((a, b) => b.lines - a.lines) };
}

if (import.meta.main) {
  const all = process.argv.includes("--all");
  const { functions, files } = await measure(join(import.meta.dir, "..", "src"));
  const longFns = functions.filter((f) => f.lines > (all ? 80 : MAX_FUNCTION));
  const longFiles = files.filter((f) => f.lines > (all ? 500 : MAX_FILE));
  for (const f of longFns) console.log(`${String(f.lines).padStart(5)}  ${f.name}  ${f.file}:${f.line}`);
  for (const f of longFiles) console.log(`${String(f.lines).padStart(5)}  (file)  ${f.file}`);
  const over = functions.filter((f) => f.lines > MAX_FUNCTION).length + files.filter((f) => f.lines > MAX_FILE).length;
  console.log(`${functions.filter((f) => f.lines > MAX_FUNCTION).length} functions over ${MAX_FUNCTION} lines, ${files.filter((f) => f.lines > MAX_FILE).length} files over ${MAX_FILE}`);
  process.exit(over === 0 ? 0 : 1);
}
