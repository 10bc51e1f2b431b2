// PostToolUse's tool_response in Claude Code's per-tool shape (Write and Edit `filePath` and
// `structuredPatch`, Bash `stdout`/`interrupted`, Read `file.content`, Glob and Grep `filenames`):
// each tool makes its own from what it did (ToolResult.response); what we cannot know as Claude
// Code does is documented in docs/hooks.md. MCP tools and ours without one (Process): the result
// as the tool gave it, text blocks and all.
import type { ToolOutcome } from "../tools/types.ts";

export function claudeToolResponse(r: ToolOutcome): unknown {
  return r.response !== undefined ? r.response : r.content;
}
