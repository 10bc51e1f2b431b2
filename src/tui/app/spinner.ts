// The spinner's clock: it ticks only while the agent works and nobody is being asked, so an idle
// app arms no timer at all.
const SPIN_MS = 100;

export class Spinner {
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly tick: () => void) {}

  /** Ticks from now on, unless a question is open (`asking`: nothing moves while the user reads). */
  start(asking: boolean): void {
    if (this.timer || asking) return;
    this.timer = setInterval(this.tick, SPIN_MS);
  }

  /** Stops, until start() again. */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
