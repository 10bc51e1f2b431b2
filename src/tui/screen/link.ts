// How much of our output is still on its way to the terminal, measured rather than guessed. A
// request written behind a frame is answered only once the terminal has read everything before it,
// so the time its answer takes is the time our queued output takes to drain, plus a round trip.
// SSH_CONNECTION only says that a link may be slow, and sshd and TCP buffer hundreds of kilobytes:
// a program writing a frame every 16 ms feels nothing until seconds of output are queued, and each
// write costs about 100 bytes of SSH and TCP framing on top.
//
// The request is device attributes (DA1, CSI c) rather than DSR 6n: it rides behind our output the
// same way, and its answer (CSI ? ... c) cannot be mistaken for a key, where the cursor report
// CSI row;col R is also Shift+F3 and its kin.
//
// The rule: while a request is unanswered, scheduled frames wait (the screen keeps the latest
// state; the next frame carries all of it). On a local terminal the answer is back in a
// millisecond and nothing changes. On a slow link frames become as few and as large as the link
// needs, at most one frame is queued, and the end of an answer shows one frame's drain after it
// arrived. A request rides behind every frame while the link is slow, else at most every
// `everyMs`, and it stays slow for `stickyMs` after its last slow answer: a shaped link (a token
// bucket, as tc and most uplinks are) lets a frame through at full speed after a pause, because the
// bucket refilled, and throttles the frames after it; one quick answer says nothing about the rate.
// Taken for fast again at once, frames went out unheld every 33 ms and queued behind each other
// (over ssh at 4 KB/s, answers of 36 ms flipped it, and the end of the answer waited behind two
// unheld frames). An answer later than `waitMs` stops holding frames back (the link may be that slow);
// one later than `forgetMs` is taken for lost (a terminal that never answers), and the next frame
// asks again.
export const LINK_PROBE = "\x1b[c";

export type LinkOptions = {
  /** A frame may be due: called when an answer comes (or stops being waited for). */
  wake: () => void;
  now?: () => number;
  /** Below this round trip the link counts as fast (ms). */
  slowMs?: number;
  everyMs?: number;
  /** How long the link counts as slow after its last slow answer (ms). */
  stickyMs?: number;
  waitMs?: number;
  forgetMs?: number;
};

export class LinkGauge {
  private sentAt: number | null = null;
  private lastSentAt = -Infinity;
  private holding = false;
  /** The link counts as slow until then. */
  private slowUntil = -Infinity;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The last measured time from a frame's write to the terminal's answer (ms). */
  roundTripMs = 0;
  private readonly now: () => number;

  constructor(private readonly opts: LinkOptions) {
    this.now = opts.now ?? (() => performance.now());
  }

  get slow(): boolean {
    return this.now() < this.slowUntil;
  }

  /** Scheduled frames wait: the last request is still on its way. */
  get held(): boolean {
    return this.holding;
  }

  /** No request rides behind frames while set: the terminal is about to be handed over. */
  quiet = false;

  /** The request to write behind this frame, or "". */
  probe(): string {
    if (this.quiet) return "";
    if (this.sentAt !== null && this.now() - this.sentAt < (this.opts.forgetMs ?? 4000)) return "";
    const at = this.now();
    if (!this.slow && at - this.lastSentAt < (this.opts.everyMs ?? 250)) return "";
    this.sentAt = at;
    this.lastSentAt = at;
    this.holding = true;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.holding = false;
      this.opts.wake();
    }, this.opts.waitMs ?? 1000);
    return LINK_PROBE;
  }

  /** The terminal answered a DA1 request (ours, or one the start-up probe sent: either way it has read our output). */
  answered(): void {
    if (this.sentAt === null) return;
    const at = this.now();
    this.roundTripMs = at - this.sentAt;
    if (this.roundTripMs >= (this.opts.slowMs ?? 40)) this.slowUntil = at + (this.opts.stickyMs ?? 5000);
    this.sentAt = null;
    this.holding = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.opts.wake();
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
