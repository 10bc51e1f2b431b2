// The line splitter the protocol modes read stdin with: the same lines however the bytes are
// chunked, CRLF, the size limit exactly at its edge, a too-large line skipped without losing the
// next, and the id read from the start of a line too large to parse.
import { describe, expect, test } from "bun:test";
import { LineSplitter, leadingFields, type JsonLine } from "../../src/stdio/json-lines.ts";

const enc = (s: string) => new TextEncoder().encode(s);

function split(chunks: Uint8Array[], limit: number): JsonLine[] {
  const s = new LineSplitter(limit);
  const out = chunks.flatMap((c) => s.push(c));
  const last = s.end();
  return last ? [...out, last] : out;
}

/** `bytes` cut at the given offsets. */
const cut = (bytes: Uint8Array, at: number[]) => [0, ...at, bytes.length].slice(1).map((end, i, ends) => bytes.subarray(i === 0 ? 0 : ends[i - 1], end));

describe("LineSplitter", () => {
  const input = enc('{"a":1}\r\n\n{"b":"é"}\n' + "x".repeat(40) + '\n{"id":3,"p":"' + "y".repeat(30) + '"}\n{"c":2}');
  const expected: JsonLine[] = [
    { kind: "line", text: '{"a":1}' },
    { kind: "line", text: "" },
    { kind: "line", text: '{"b":"é"}' },
    { kind: "too_large", bytes: 40, head: "x".repeat(40) },
    { kind: "too_large", bytes: 45, head: '{"id":3,"p":"' + "y".repeat(30) + '"}' },
    { kind: "line", text: '{"c":2}' },
  ];

  test("any chunking gives the same lines, the too-large ones skipped with their size, the next line whole", () => {
    expect(split([input], 20)).toEqual(expected);
    expect(split([...input].map((b) => new Uint8Array([b])), 20)).toEqual(expected);
    for (let seed = 1; seed < 50; seed++) {
      const at = [...new Set(Array.from({ length: 6 }, (_, i) => ((seed * 7919 * (i + 1)) % (input.length - 1)) + 1))].sort((a, b) => a - b);
      expect(split(cut(input, at), 20)).toEqual(expected);
    }
  });

  test("the limit is the line's size without its line ending: exactly the limit passes, one byte more does not", () => {
    const line = "z".repeat(10);
    expect(split([enc(`${line}\r\n`)], 10)).toEqual([{ kind: "line", text: line }]);
    expect(split([enc(`${line}z\n`)], 10)).toEqual([{ kind: "too_large", bytes: 11, head: `${line}z` }]);
    expect(split([enc(`${line}z\r\n`)], 10)).toEqual([{ kind: "too_large", bytes: 11, head: `${line}z` }]);
  });

  test("a too-large line keeps only its first 64 KiB", () => {
    const big = enc(`${"q".repeat(200_000)}\nok\n`);
    const [first, second] = split(cut(big, [1000, 70_000, 150_000]), 100_000 - 1);
    expect(first).toMatchObject({ kind: "too_large", bytes: 200_000 });
    expect(first!.kind === "too_large" && first!.head.length).toBe(64 * 1024);
    expect(second).toEqual({ kind: "line", text: "ok" });
  });
});

const leadingField = (head: string, name: string) => leadingFields(head).values.get(name);

describe("leadingFields", () => {
  test("lists the keys up to the cut, the one cut off included: a response shows its result", () => {
    expect(leadingFields('{"jsonrpc":"2.0","id":5,"result":{"content":"aaaa').keys).toEqual(["jsonrpc", "id", "result"]);
    expect(leadingFields('{"jsonrpc":"2.0","id":5,"method":"fs/x","params":{"a').keys).toEqual(["jsonrpc", "id", "method", "params"]);
  });

  test("reads a top-level id before the cut, past nested values and strings with braces", () => {
    expect(leadingField('{"jsonrpc":"2.0","id":12,"method":"x","params":{"a', "id")).toBe(12);
    expect(leadingField(' { "params": {"id": 1, "s": "}{\\""}, "id" : "abc", "x', "id")).toBe("abc");
    expect(leadingField('{"type":"control_request","request_id":"r-9","request":{"', "request_id")).toBe("r-9");
  });

  test("is undefined when the field is past the cut, nested only, or the text is not an object", () => {
    expect(leadingField('{"jsonrpc":"2.0","params":{"id":4,"pad":"aaaa', "id")).toBeUndefined();
    expect(leadingField('{"params":{"id":4},"method":"m"}', "id")).toBeUndefined();
    expect(leadingField("xxxxxxxx", "id")).toBeUndefined();
    expect(leadingField('[{"id":1}]', "id")).toBeUndefined();
    expect(leadingField('{"id":12', "id")).toBeUndefined();
  });
});
