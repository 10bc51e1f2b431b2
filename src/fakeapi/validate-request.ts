// The request rules the real Messages API enforces with a 400 invalid_request_error, as far as an
// agent can break them. The session crash tests rely on these: a resumed log that produces an
// invalid request must fail here exactly as it would against the real API.
// One deliberate strictness: roles must alternate. The real API merges consecutive same-role
// messages; we reject them because our kernel never means to send them.

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const USER_BLOCKS = new Set(["text", "image", "document", "tool_result", "search_result"]);
const ASSISTANT_BLOCKS = new Set(["text", "thinking", "redacted_thinking", "tool_use", "server_tool_use", "web_search_tool_result", "web_fetch_tool_result"]);
/** Every server tool's result block is named so (code_execution_tool_result, ...): the client may not know them all. */
const isServerResult = (type: string) => type.endsWith("_tool_result") && type !== "tool_result";
const SERVER_TOOL_TYPE = /^(web_search|web_fetch|tool_search_tool_regex|tool_search_tool_bm25)_\d{8}$/;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;
const TOOL_ID = /^[a-zA-Z0-9_-]+$/;

/** Returns the API's error message for the first rule broken, or null for a valid request. */
export function validateMessagesRequest(body: unknown, opts: { countTokens?: boolean } = {}): string | null {
  if (!isObj(body)) return "request body must be a JSON object";
  if (typeof body.model !== "string" || body.model === "") return "model: Field required";
  if (!opts.countTokens) {
    if (body.max_tokens === undefined) return "max_tokens: Field required";
    if (typeof body.max_tokens !== "number" || !Number.isInteger(body.max_tokens) || body.max_tokens < 1)
      return "max_tokens: Input should be a valid integer greater than or equal to 1";
  }
  return (
    checkThinking(body) ??
    checkSystem(body.system) ??
    checkTools(body.tools) ??
    checkMessages(body.messages) ??
    checkCacheControlCount(body)
  );
}

function checkThinking(body: Obj): string | null {
  const t = body.thinking;
  if (t === undefined) return null;
  if (!isObj(t)) return "thinking: Input should be an object";
  if (t.type === "enabled") {
    if (typeof t.budget_tokens !== "number" || t.budget_tokens < 1024)
      return "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024";
    if (typeof body.max_tokens === "number" && body.max_tokens <= t.budget_tokens)
      return "`max_tokens` must be greater than `thinking.budget_tokens`.";
    return null;
  }
  if (t.type === "adaptive" || t.type === "disabled" || t.type === "between_tools") return null;
  return `thinking.type: Input tag '${String(t.type)}' does not match any of the expected tags: 'enabled', 'disabled', 'adaptive', 'between_tools'`;
}

function checkSystem(system: unknown): string | null {
  if (system === undefined || typeof system === "string") return null;
  if (!Array.isArray(system)) return "system: Input should be a valid string or list of text blocks";
  for (const [i, b] of system.entries()) {
    if (!isObj(b) || b.type !== "text" || typeof b.text !== "string") return `system.${i}: Input should be a text block`;
    if (b.text.trim() === "") return `system.${i}.text: text content blocks must contain non-whitespace text`;
  }
  return null;
}

function checkTools(tools: unknown): string | null {
  if (tools === undefined) return null;
  if (!Array.isArray(tools)) return "tools: Input should be a valid list";
  const seen = new Set<string>();
  for (const [i, t] of tools.entries()) {
    if (!isObj(t) || typeof t.name !== "string") return `tools.${i}.name: Field required`;
    if (!TOOL_NAME.test(t.name)) return `tools.${i}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
    if (seen.has(t.name)) return "tools: Tool names must be unique.";
    seen.add(t.name);
    if (t.type !== undefined && t.type !== "custom") {
      if (typeof t.type !== "string" || !SERVER_TOOL_TYPE.test(t.type)) return `tools.${i}.type: Input tag '${String(t.type)}' does not match any of the expected tags`;
      if (t.name !== t.type.replace(/_\d{8}$/, "")) return `tools.${i}.name: Input should be '${t.type.replace(/_\d{8}$/, "")}'`;
      if (Array.isArray(t.allowed_domains) && Array.isArray(t.blocked_domains) && t.allowed_domains.length > 0 && t.blocked_domains.length > 0)
        return `tools.${i}: cannot specify both allowed_domains and blocked_domains`;
      continue;
    }
    if (!isObj(t.input_schema) || t.input_schema.type !== "object")
      return `tools.${i}.custom.input_schema.type: Input should be 'object'`;
  }
  return null;
}

function blocksOf(content: unknown): Obj[] | null {
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (!Array.isArray(content)) return null;
  return content.every(isObj) ? (content as Obj[]) : null;
}

function checkMessages(messages: unknown): string | null {
  if (!Array.isArray(messages)) return "messages: Field required";
  if (messages.length === 0) return "messages: at least one message is required";
  const toolUseIds = new Set<string>();
  let pendingToolUses: string[] = [];
  for (const [i, m] of messages.entries()) {
    if (!isObj(m) || (m.role !== "user" && m.role !== "assistant"))
      return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    if (i === 0 && m.role !== "user") return 'messages: first message must use the "user" role';
    const prev = i > 0 ? (messages[i - 1] as Obj) : null;
    if (prev && prev.role === m.role)
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${m.role}" roles in a row`;
    const blocks = blocksOf(m.content);
    if (!blocks) return `messages.${i}.content: Input should be a valid string or list of content blocks`;
    const isFinal = i === messages.length - 1;
    if (blocks.length === 0 && !(isFinal && m.role === "assistant"))
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;

    const allowed = m.role === "user" ? USER_BLOCKS : ASSISTANT_BLOCKS;
    for (const [j, b] of blocks.entries()) {
      const where = `messages.${i}.content.${j}`;
      if (typeof b.type !== "string" || !(allowed.has(b.type) || (m.role === "assistant" && isServerResult(b.type))))
        return `${where}.type: Input tag '${String(b.type)}' is not a valid content block for the ${m.role} role`;
      const bad = checkBlock(b, where);
      if (bad) return bad;
    }

    if (m.role === "user") {
      // Every tool_use of the previous assistant message is answered here, first, and nothing else is.
      const results = blocks.filter((b) => b.type === "tool_result");
      const answered = new Set(results.map((b) => b.tool_use_id as string));
      const firstOther = blocks.findIndex((b) => b.type !== "tool_result");
      const lastResult = blocks.map((b) => b.type).lastIndexOf("tool_result");
      if (results.length > 0 && firstOther !== -1 && firstOther < lastResult)
        return `messages.${i}.content: tool_result blocks must come first in the content, before any other blocks`;
      for (const [j, b] of blocks.entries()) {
        if (b.type !== "tool_result") continue;
        if (!pendingToolUses.includes(b.tool_use_id as string))
          return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(b.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      }
      const missing = pendingToolUses.filter((id) => !answered.has(id));
      if (missing.length > 0)
        return `messages.${i - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      if (answered.size !== results.length) return `messages.${i}.content: each \`tool_use_id\` may be answered only once`;
      pendingToolUses = [];
    } else {
      pendingToolUses = [];
      // A server tool call is answered inside the same message (a paused final message may wait).
      const serverCalls = blocks.filter((b) => b.type === "server_tool_use").map((b) => b.id as string);
      const serverResults = new Set(blocks.filter((b) => typeof b.type === "string" && isServerResult(b.type)).map((b) => b.tool_use_id as string));
      for (const [j, b] of blocks.entries())
        if (typeof b.type === "string" && isServerResult(b.type) && !serverCalls.includes(b.tool_use_id as string))
          return `messages.${i}.content.${j}: \`tool_use_id\` ${String(b.tool_use_id)} of a ${b.type} block has no server_tool_use block before it in the same message`;
      const unanswered = serverCalls.filter((id) => !serverResults.has(id));
      if (unanswered.length > 0 && !isFinal)
        return `messages.${i}: server_tool_use ids were found without result blocks: ${unanswered.join(", ")}`;
      for (const b of blocks) {
        if (b.type !== "tool_use") continue;
        const id = b.id as string;
        if (toolUseIds.has(id)) return `messages.${i}: \`tool_use\` ids must be unique, found ${id} twice`;
        toolUseIds.add(id);
        pendingToolUses.push(id);
      }
      if (pendingToolUses.length > 0 && isFinal)
        return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${pendingToolUses.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    }
  }
  return null;
}

function checkBlock(b: Obj, where: string): string | null {
  switch (b.type) {
    case "text":
      if (typeof b.text !== "string") return `${where}.text: Field required`;
      if (b.text === "") return `${where}.text: text content blocks must be non-empty`;
      return null;
    case "thinking":
      if (typeof b.thinking !== "string") return `${where}.thinking: Field required`;
      if (typeof b.signature !== "string" || b.signature === "") return `${where}.signature: Field required`;
      return null;
    case "redacted_thinking":
      return typeof b.data === "string" ? null : `${where}.data: Field required`;
    case "tool_use":
      if (typeof b.id !== "string" || !TOOL_ID.test(b.id)) return `${where}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
      if (typeof b.name !== "string" || !TOOL_NAME.test(b.name)) return `${where}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`;
      if (!isObj(b.input)) return `${where}.input: Input should be a valid dictionary`;
      return null;
    case "server_tool_use":
      if (typeof b.id !== "string" || !TOOL_ID.test(b.id)) return `${where}.id: String should match pattern '^[a-zA-Z0-9_-]+$'`;
      if (typeof b.name !== "string") return `${where}.name: Field required`;
      if (!isObj(b.input)) return `${where}.input: Input should be a valid dictionary`;
      return null;
    case "tool_result": {
      if (typeof b.tool_use_id !== "string") return `${where}.tool_use_id: Field required`;
      if (b.content === undefined || typeof b.content === "string") return null;
      if (!Array.isArray(b.content)) return `${where}.content: Input should be a valid string or list`;
      for (const [k, c] of b.content.entries()) {
        if (!isObj(c) || (c.type !== "text" && c.type !== "image" && c.type !== "document" && c.type !== "search_result"))
          return `${where}.content.${k}.type: Input should be 'text', 'image', 'document' or 'search_result'`;
        if (c.type === "text" && (typeof c.text !== "string" || c.text === ""))
          return `${where}.content.${k}.text: text content blocks must be non-empty`;
        if (c.type === "image") {
          const bad = checkImage(c, `${where}.content.${k}`);
          if (bad) return bad;
        }
      }
      return null;
    }
    case "image":
      return checkImage(b, where);
    default:
      return null;
  }
}

const IMAGE_MEDIA = ["image/jpeg", "image/png", "image/gif", "image/webp"];
/** The API's cap on one image: the length of its base64 text. */
export const FAKE_IMAGE_MAX_BASE64 = 5 * 1024 * 1024;

/**
 * An image block as the API checks it: a known media type, base64 data under the cap, and bytes
 * that are what the media type says. Its own reading of the magic numbers, so a mistake in
 * KHAELOR's cannot pass here unnoticed.
 */
function checkImage(b: Obj, where: string): string | null {
  const s = b.source;
  if (!isObj(s)) return `${where}.source: Field required`;
  if (s.type === "url") return typeof s.url === "string" ? null : `${where}.source.url: Field required`;
  if (s.type !== "base64") return `${where}.source.type: Input should be 'base64', 'url' or 'file'`;
  if (typeof s.media_type !== "string" || !IMAGE_MEDIA.includes(s.media_type)) return `${where}.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
  if (typeof s.data !== "string" || s.data === "") return `${where}.source.base64.data: Field required`;
  if (s.data.length > FAKE_IMAGE_MAX_BASE64) return `${where}.source.base64: image exceeds 5 MB maximum: ${s.data.length} bytes > ${FAKE_IMAGE_MAX_BASE64} bytes`;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s.data) || s.data.length % 4 !== 0) return `${where}.source.base64.data: invalid base64 data`;
  const head = Buffer.from(s.data.slice(0, 24), "base64");
  const actual =
    head[0] === 0x89 && head.toString("latin1", 1, 4) === "PNG" ? "image/png"
    : head[0] === 0xff && head[1] === 0xd8 ? "image/jpeg"
    : head.toString("latin1", 0, 4) === "GIF8" ? "image/gif"
    : head.toString("latin1", 0, 4) === "RIFF" && head.toString("latin1", 8, 12) === "WEBP" ? "image/webp"
    : null;
  if (actual === null) return `${where}.source.base64.data: Could not process image`;
  if (actual !== s.media_type) return `${where}.source.base64.data: Image does not match the provided media type ${s.media_type}`;
  return null;
}

/** Blocks carrying cache_control anywhere in tools, system and messages. */
export function countCacheBreakpoints(body: Obj): number {
  let n = 0;
  const visit = (b: unknown) => {
    if (isObj(b) && b.cache_control !== undefined && b.cache_control !== null) n++;
  };
  if (Array.isArray(body.tools)) body.tools.forEach(visit);
  if (Array.isArray(body.system)) body.system.forEach(visit);
  if (Array.isArray(body.messages))
    for (const m of body.messages) if (isObj(m) && Array.isArray(m.content)) m.content.forEach(visit);
  return n;
}

function checkCacheControlCount(body: Obj): string | null {
  const n = countCacheBreakpoints(body);
  return n > 4 ? `A maximum of 4 blocks with cache_control may be provided. Found ${n}.` : null;
}
