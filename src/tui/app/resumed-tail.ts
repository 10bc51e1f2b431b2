// On --resume: the last few turns go to the scrollback; the earlier entries are in the pager only.
// Both show the log's current branch: what a rewind left behind stays in the log, not on screen.
import type { DurableEvent } from "../../events/types.ts";
import { currentBranch } from "../../session/branch.ts";
import type { Screen } from "../screen/screen.ts";
import { span } from "../views/text.ts";
import { ui } from "../views/theme.ts";
import type { AppState } from "./state.ts";

export function showResumedTail(st: AppState, screen: Screen, events: readonly DurableEvent[], keep: number): void {
  st.transcript.applyAll(currentBranch(events));
  const entries = st.transcript.entries;
  let seen = 0;
  let from = entries.length;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.kind === "user" && !e.steering && ++seen === keep) {
      from = i;
      break;
    }
    from = i;
  }
  // Earlier entries are in the pager only: mark them as written without writing them.
  if (from > 0) {
    st.committer.skipTo(from);
    screen.commit([{ spans: [span(`… ${from} earlier entr${from === 1 ? "y" : "ies"} of this session: Ctrl-T shows the whole transcript`, ui.dim)] }]);
  }
}
