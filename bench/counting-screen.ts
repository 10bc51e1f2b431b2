// A real screen that writes nowhere: it counts the bytes it would send to the terminal. The app
// benches measure the app through it, keeping (as each needs) its frames' stats or the rows it
// commits to history.
import type { Row } from "../src/tui/render/style.ts";
import { createScreen, type FrameStats, type Screen } from "../src/tui/screen/screen.ts";

export function countingScreen(cols: number, rows: number, o: { schedule?: false } = {}): { screen: Screen; bytes(): number } {
  let bytes = 0;
  const screen = createScreen({ output: { write: (d: string) => ((bytes += Buffer.byteLength(d)), true) }, caps: { colorDepth: "256", syncOutput: true }, cursorStyle: "auto", cols, rows, ...o });
  return { screen, bytes: () => bytes };
}

/** The floor a streamed answer is measured against: these history rows painted once, at rest, by a fresh screen. */
export function stillPaintBytes(history: readonly Row[], cols: number, rows: number): number {
  const still = countingScreen(cols, rows, { schedule: false });
  still.screen.commit(history.slice());
  still.screen.frame();
  return still.bytes();
}

/** Each frame's stats, from now on. */
export function keepFrames(screen: Screen): FrameStats[] {
  const frames: FrameStats[] = [];
  const frame = screen.frame.bind(screen);
  screen.frame = () => {
    const st = frame();
    if (st) frames.push(st);
    return st;
  };
  return frames;
}

/** Every row committed to history, from now on. */
export function keepCommitted(screen: Screen): Row[] {
  const committed: Row[] = [];
  const commit = screen.commit.bind(screen);
  screen.commit = (rows: Row[]) => {
    committed.push(...rows);
    commit(rows);
  };
  return committed;
}
