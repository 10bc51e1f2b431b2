// SIGINT, SIGTERM and SIGHUP, heard the same way in every mode: each has its exit code (130, 143,
// 129) and the reason a cancelled turn records; the first one asks the mode to stop (end the turn,
// close the session so its log is complete), a second one leaves at once.
import { EXIT } from "./exit-codes.ts";

export type StopSignal = { name: "SIGINT" | "SIGTERM" | "SIGHUP"; code: number; reason: "sigint" | "sigterm" | "sighup" };

export const STOP_SIGNALS: readonly StopSignal[] = [
  { name: "SIGINT", code: EXIT.sigint, reason: "sigint" },
  { name: "SIGTERM", code: EXIT.sigterm, reason: "sigterm" },
  { name: "SIGHUP", code: EXIT.sighup, reason: "sighup" },
];

export type StopSignalOptions = {
  /** A second signal exits at once with its own code (default). The app says no: its terminal layer re-raises each signal after restoring the screen, and every one must reach `onStop`. */
  secondExits?: boolean;
  /** How to leave at once; process.exit, a parameter for the tests. */
  exit?: (code: number) => void;
};

/** Listens for the stop signals until the returned function is called. */
export function onStopSignals(onStop: (signal: StopSignal) => void, opts: StopSignalOptions = {}): () => void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const listeners = STOP_SIGNALS.map((s) => {
    const listener = () => {
      if (stopping && opts.secondExits !== false) return exit(s.code);
      stopping = true;
      onStop(s);
    };
    process.on(s.name, listener);
    return () => void process.off(s.name, listener);
  });
  return () => {
    for (const off of listeners) off();
  };
}
