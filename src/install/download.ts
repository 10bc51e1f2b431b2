// Fetching a release's files: the manifest as text, a binary streamed into an open file while its
// size and sha256 are counted, so a damaged, truncated or oversized download is known before the
// file is ever used. Every request has a deadline (a parameter, so tests need not wait one out).
import { createHash } from "node:crypto";
import { writeSync } from "node:fs";

export class DownloadError extends Error {}

const describe = (e: unknown) => (e instanceof Error ? (e.cause instanceof Error ? `${e.message}: ${e.cause.message}` : e.message) : String(e));

async function get(url: string, timeoutMs: number): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
  } catch (e) {
    throw new DownloadError(`could not reach ${url} (${describe(e)})`);
  }
  if (!res.ok) throw new DownloadError(`${url} answered ${res.status} ${res.statusText}`.trim());
  return res;
}

export async function fetchText(url: string, timeoutMs = 15_000, maxBytes = 1 << 20): Promise<string> {
  const res = await get(url, timeoutMs);
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    throw new DownloadError(`the download of ${url} was cut off (${describe(e)})`);
  }
  if (text.length > maxBytes) throw new DownloadError(`${url} is larger than ${maxBytes} bytes: not a release manifest`);
  return text;
}

/** Streams `url` into the open file `fd`, checking it is exactly `size` bytes with this sha256. */
export async function downloadVerified(url: string, fd: number, want: { size: number; sha256: string }, timeoutMs = 600_000): Promise<void> {
  const res = await get(url, timeoutMs);
  const hash = createHash("sha256");
  let got = 0;
  try {
    for await (const chunk of res.body ?? []) {
      got += chunk.byteLength;
      if (got > want.size) throw new DownloadError(`${url} is larger than the ${want.size} bytes the manifest says: not the file released`);
      hash.update(chunk);
      for (let off = 0; off < chunk.byteLength; ) off += writeSync(fd, chunk, off);
    }
  } catch (e) {
    if (e instanceof DownloadError) throw e;
    throw new DownloadError(`the download of ${url} was cut off after ${got} of ${want.size} bytes (${describe(e)})`);
  }
  if (got < want.size) throw new DownloadError(`the download of ${url} is truncated: ${got} of ${want.size} bytes`);
  const sum = hash.digest("hex");
  if (sum !== want.sha256) throw new DownloadError(`the download of ${url} is damaged: its sha256 is ${sum}, the manifest says ${want.sha256}`);
}
