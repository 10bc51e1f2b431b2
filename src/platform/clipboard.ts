// The system clipboard through the helper each platform has: pbcopy/pbpaste on macOS; on Linux
// wl-copy/wl-paste under Wayland, else xclip or xsel under X. None found (a bare SSH session, a
// console): null, and the caller falls back to the terminal's own clipboard (OSC 52).
// The copy helpers of Wayland and X fork a process that keeps serving the selection after they
// exit, holding whatever output it inherited: their output is not piped, so only their exit is awaited.
import { spawn } from "node:child_process";

type Env = Record<string, string | undefined>;

export type ClipboardHelper = { copy: string[]; paste: string[] };

export function clipboardHelper(platform: NodeJS.Platform = process.platform, env: Env = process.env): ClipboardHelper | null {
  const has = (cmd: string) => Bun.which(cmd, { PATH: env.PATH ?? "" }) !== null;
  if (platform === "darwin") return has("pbcopy") ? { copy: ["pbcopy"], paste: ["pbpaste"] } : null;
  if (platform === "win32") return null; // Windows is not a supported platform yet
  if (env.WAYLAND_DISPLAY && has("wl-copy")) return { copy: ["wl-copy"], paste: ["wl-paste", "--no-newline"] };
  if (env.DISPLAY && has("xclip")) return { copy: ["xclip", "-selection", "clipboard", "-in"], paste: ["xclip", "-selection", "clipboard", "-out"] };
  if (env.DISPLAY && has("xsel")) return { copy: ["xsel", "--clipboard", "--input"], paste: ["xsel", "--clipboard", "--output"] };
  return null;
}

/** Puts text on the clipboard; the error says which helper failed and how. */
export function copyText(text: string, helper: ClipboardHelper, env: Env = process.env): Promise<void> {
  const [cmd = "", ...args] = helper.copy;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ["pipe", "ignore", "ignore"] });
    child.once("error", (e) => reject(new Error(`${cmd} could not start: ${e.message}`)));
    child.once("exit", (code, signal) => (code === 0 ? resolve() : reject(new Error(`${cmd} failed (${signal ?? `exit ${code}`})`))));
    child.stdin.on("error", () => {}); // an early exit shows as the exit status above
    child.stdin.end(text);
  });
}

/** The clipboard's text. */
export function pasteText(helper: ClipboardHelper, env: Env = process.env): Promise<string> {
  const [cmd = "", ...args] = helper.paste;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => (err += b.toString("utf8")));
    child.once("error", (e) => reject(new Error(`${cmd} could not start: ${e.message}`)));
    child.once("close", (code) => (code === 0 ? resolve(Buffer.concat(out).toString("utf8")) : reject(new Error(`${cmd} failed (exit ${code}): ${err.trim()}`))));
  });
}

/**
 * The command that writes the clipboard's image (PNG, what screenshot tools put there) to stdout:
 * wl-paste under Wayland, xclip under X (xsel has no image targets), osascript on macOS (pbpaste
 * has no images; AppleScript prints the PNG data as hex). Null where there is none.
 */
export function imagePasteCommand(platform: NodeJS.Platform = process.platform, env: Env = process.env): string[] | null {
  const has = (cmd: string) => Bun.which(cmd, { PATH: env.PATH ?? "" }) !== null;
  if (platform === "darwin") return has("osascript") ? ["osascript", "-e", "the clipboard as «class PNGf»"] : null;
  if (platform === "win32") return null;
  if (env.WAYLAND_DISPLAY && has("wl-paste")) return ["wl-paste", "--no-newline", "--type", "image/png"];
  if (env.DISPLAY && has("xclip")) return ["xclip", "-selection", "clipboard", "-t", "image/png", "-o"];
  return null;
}

/** At most this much is read from a clipboard command (far above what the API takes, so the size is reported, not cut). */
const MAX_CLIPBOARD_IMAGE = 64 * 1024 * 1024;

/** The clipboard's image bytes; rejects with the command's own words when it has none (text on the clipboard). */
export function pasteImage(command: string[], env: Env = process.env): Promise<Buffer> {
  const [cmd = "", ...args] = command;
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let size = 0;
    let err = "";
    child.stdout.on("data", (b: Buffer) => {
      size += b.length;
      if (size > MAX_CLIPBOARD_IMAGE) {
        child.kill();
        reject(new Error(`the clipboard holds more than ${MAX_CLIPBOARD_IMAGE / 1024 / 1024} MB`));
      } else out.push(b);
    });
    child.stderr.on("data", (b: Buffer) => (err += b.toString("utf8")));
    child.once("error", (e) => reject(new Error(`${cmd} could not start: ${e.message}`)));
    child.once("close", (code) => {
      if (code !== 0) return reject(new Error(`${cmd}: ${err.trim().split("\n")[0] || `exit ${code}`}`));
      const bytes = Buffer.concat(out);
      resolve(cmd === "osascript" ? fromAppleScriptData(bytes.toString("latin1")) : bytes);
    });
  });
}

/** AppleScript prints data as «data PNGf89504E47…»: the hex digits are the bytes. */
function fromAppleScriptData(s: string): Buffer {
  const m = /«data [A-Za-z0-9 ]{4}([0-9A-Fa-f]*)»/.exec(Buffer.from(s, "latin1").toString("utf8"));
  return m ? Buffer.from(m[1]!, "hex") : Buffer.alloc(0);
}
