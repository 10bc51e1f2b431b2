// Images in the log are files beside it, not base64 inside it (src/session/image-store.ts says
// why). On the way to disk each image block of a user message or a tool result becomes a
// reference, `{ type: "image", source: { type: "file", media_type, file, bytes } }`; on the way
// back the reference becomes the image again, before the line is validated, so nothing past the
// log ever sees one. This walks the raw JSON of one event, in both directions.

type Raw = Record<string, unknown>;
const isObj = (x: unknown): x is Raw => typeof x === "object" && x !== null && !Array.isArray(x);

/** A stored image's reference as it is in a log line (checked by whoever reads the file). */
export type StoredImageRef = { type: "image"; source: { type: "file"; media_type: string; file: string; bytes: number } };

/** Is this block an image given inline (base64), to be stored? */
export const isInlineImage = (b: unknown): b is { type: "image"; source: { type: "base64"; media_type: string; data: string } } =>
  isObj(b) && b.type === "image" && isObj(b.source) && b.source.type === "base64" && typeof b.source.data === "string";

/** Is this block a stored image's reference, to be resolved? */
export const isImageRef = (b: unknown): b is StoredImageRef => isObj(b) && b.type === "image" && isObj(b.source) && b.source.type === "file";

/**
 * The event with every image block that `pick` selects replaced by `map`'s result (a copy where
 * anything changed; the event itself is never modified). Image blocks sit in a user message's
 * content, in a tool_result block's content there, and in a tool_result event's content.
 */
export function mapImageBlocks(event: Raw, pick: (b: unknown) => boolean, map: (b: Raw) => unknown): Raw {
  const blocks = (content: unknown): unknown => {
    if (!Array.isArray(content) || !content.some((b) => pick(b) || (isObj(b) && b.type === "tool_result" && Array.isArray(b.content)))) return content;
    return content.map((b) => {
      if (pick(b)) return map(b as Raw);
      if (isObj(b) && b.type === "tool_result" && Array.isArray(b.content)) return { ...b, content: blocks(b.content) };
      return b;
    });
  };
  if (event.type !== "user_message" && event.type !== "tool_result") return event;
  const content = blocks(event.content);
  return content === event.content ? event : { ...event, content };
}
