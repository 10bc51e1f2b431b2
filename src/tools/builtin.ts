// The seven built-in tools, in the order the model sees them.
import { bashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { processTool } from "./process.ts";
import { readTool } from "./read.ts";
import type { Tool } from "./types.ts";
import { writeTool } from "./write.ts";

export function builtinTools(): Tool[] {
  return [readTool, writeTool, editTool, grepTool, globTool, bashTool, processTool];
}
