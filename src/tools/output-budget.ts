// One budget for every tool result. Past it, the model gets the head and the tail with a marker
// saying what was cut, and the whole output is saved to a spill file it can read or grep. Long
// outputs are usually boring in the middle: the command line and setup at the top, the error or
// summary at the bottom.
import type { SpillAppender, SpillFiles } from "../workspace/spill.ts";
import { collapseRedraws } from "../workspace/terminal-text.ts";

export const RESULT_BUDGET_CHARS = 30_000;
const HEAD_SHARE = 0.4;

// CSI, OSC (terminated by BEL or ST), and the two-byte escapes.
const ANSI = /\x1b\[[0-?]*[ -\/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** Text as the model should see it: no escape sequences, progress-bar redraws collapsed. */
export function cleanOutput(text: string): string {
  const s = collapseRedraws(text.replace(ANSI, ""));
  // Other C0 controls (except tab and newline) mean nothing to the model and could reach a terminal.
  return s.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}

/** Binary, as opposed to text with a stray byte: NULs, or many bytes that are not text. */
export function looksBinaryOutput(sample: string): boolean {
  if (sample.length === 0) return false;
  if (sample.includes("\0")) return true;
  let bad = 0;
  const n = Math.min(sample.length, 8192);
  for (let i = 0; i < n; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0xfffd || (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 27)) bad++;
  }
  return bad / n > 0.1;
}

export type Budgeted = { text: string; spillPath: string | null; cutChars: number };

/** Fit `text` into the budget; `label` names the spill file (e.g. "bash"). */
export function fitToBudget(text: string, spill: SpillFiles, label: string, budget = RESULT_BUDGET_CHARS): Budgeted {
  if (text.length <= budget) return { text, spillPath: null, cutChars: 0 };
  const spillPath = spill.write(label, text);
  return { ...headAndTail(text, text.length, budget, whereSaved(spill, spillPath)), spillPath };
}

/** Where the full output is, for the model: a file to read, or why there is none. */
function whereSaved(spill: SpillFiles, path: string | null): string {
  return path ? `is in ${path} — read or grep it for the rest` : `could not be saved (${spill.lastError ?? "unknown error"}) — narrow the command's output instead`;
}

function headAndTail(textOrHead: string, total: number, budget: number, where: string, tail?: string): { text: string; cutChars: number } {
  const headBudget = Math.floor(budget * HEAD_SHARE);
  const tailBudget = budget - headBudget;
  let head = textOrHead.slice(0, headBudget);
  let end = tail ?? textOrHead.slice(-tailBudget);
  if (end.length > tailBudget) end = end.slice(-tailBudget);
  // Cut at line boundaries when a line break is near, so no line is shown half.
  const hn = head.lastIndexOf("\n");
  if (hn > headBudget * 0.8) head = head.slice(0, hn + 1);
  const tn = end.indexOf("\n");
  if (tn !== -1 && tn < tailBudget * 0.2) end = end.slice(tn + 1);
  const cut = total - head.length - end.length;
  const marker = `\n[... ${cut.toLocaleString("en-US")} characters cut from the middle; the full output (${total.toLocaleString("en-US")} characters) ${where} ...]\n`;
  return { text: head + (head.endsWith("\n") ? marker.slice(1) : marker) + end, cutChars: cut };
}

/**
 * Collects a stream (bash, process) in bounded memory: the whole stream until it passes the
 * budget, then only head and tail in memory while everything goes to the spill file.
 */
export class OutputCollector {
  private all = "";
  /** The bytes as they came, while they fit in memory: the spill file is the output, not its decoding. */
  private raw: Uint8Array[] | null = [];
  private lines = 0;
  private bytes = 0;
  private endsInNewline = true;
  private head = "";
  private tail = "";
  private total = 0;
  private spillFile: SpillAppender | null = null;
  /** The output is binary: the spill file takes its bytes as they are (text goes through the redactor). */
  private binarySpill = false;

  constructor(
    private readonly spill: SpillFiles,
    private readonly label: string,
    private readonly budget = RESULT_BUDGET_CHARS,
  ) {}

  /**
   * `bytes`: what `chunk` was decoded from (bash's stdout). With it the spill file holds the exact
   * bytes, so binary output is saved as it was, not as U+FFFD text; callers that pass bytes pass
   * them for every chunk.
   */
  push(chunk: string, bytes?: Uint8Array): void {
    if (bytes === undefined) this.raw = null;
    if (!chunk && !bytes?.length) return;
    this.total += chunk.length;
    this.bytes += bytes?.length ?? 0;
    this.countLines(chunk);
    if (!this.spillFile) {
      this.all += chunk;
      if (bytes && this.raw) this.raw.push(bytes);
      if (this.all.length <= this.budget) return;
      this.binarySpill = this.raw !== null && looksBinaryOutput(this.all);
      this.spillFile = this.binarySpill ? this.spill.bytesAppender(this.label) : this.spill.appender(this.label);
      if (this.binarySpill) this.spillFile.appendBytes!(Buffer.concat(this.raw!));
      else this.spillFile.append(this.all);
      this.raw = null;
      this.head = this.all.slice(0, this.budget);
      this.tail = this.all.slice(-this.budget);
      this.all = "";
      return;
    }
    if (this.binarySpill && bytes) this.spillFile.appendBytes!(bytes);
    else this.spillFile.append(chunk);
    this.tail = (this.tail + chunk).slice(-this.budget);
  }

  private countLines(chunk: string) {
    for (let i = chunk.indexOf("\n"); i !== -1; i = chunk.indexOf("\n", i + 1)) this.lines++;
    if (chunk) this.endsInNewline = chunk.endsWith("\n");
  }

  /** The output's size as the spill file holds it: bytes when the bytes were given. */
  private size(chars: number): string {
    return this.raw || this.binarySpill ? `${this.bytes.toLocaleString("en-US")} bytes` : `${chars} characters`;
  }

  /** Lines of the whole output (not of the budgeted text): "… 1,204 earlier lines" is about the real thing. */
  get lineCount(): number {
    return this.lines + (this.endsInNewline ? 0 : 1);
  }

  get length(): number {
    return this.total;
  }

  /** The result text (cleaned, within budget) and where the whole output went, if anywhere. */
  finish(): Budgeted & { binary: boolean; totalChars: number } {
    if (!this.spillFile) {
      if (looksBinaryOutput(this.all)) {
        const path = this.spill.write(this.label, this.raw ? Buffer.concat(this.raw) : this.all);
        return { text: `[binary output: ${this.size(this.all.length)}; the full output ${whereSaved(this.spill, path)}]`, spillPath: path, cutChars: this.all.length, binary: true, totalChars: this.total };
      }
      const clean = cleanOutput(this.all);
      return { ...fitToBudget(clean, this.spill, this.label, this.budget), binary: false, totalChars: this.total };
    }
    this.spillFile.end();
    const path = this.spillFile.path;
    if (looksBinaryOutput(this.head)) {
      return { text: `[binary output: ${this.size(this.total)}; the full output ${whereSaved(this.spill, path)}]`, spillPath: path, cutChars: this.total, binary: true, totalChars: this.total };
    }
    const head = cleanOutput(this.head);
    const tail = cleanOutput(this.tail);
    const r = headAndTail(head, this.total, this.budget, whereSaved(this.spill, path), tail);
    return { ...r, spillPath: path, binary: false, totalChars: this.total };
  }
}
