// The app's state before a session is attached: empty transcript and composer, nothing asked or open.
import type { AppDeps } from "./app-deps.ts";
import { Composer } from "./composer.ts";
import { HistoryCommit } from "./history-commit.ts";
import type { AppState } from "./state.ts";
import { Transcript } from "../transcript/transcript.ts";

export function initialState(deps: Pick<AppDeps, "screen" | "history" | "finder" | "links" | "gitBranch">): AppState {
  return {
    session: null,
    ready: false,
    gitBranch: deps.gitBranch ?? null,
    transcript: new Transcript(),
    composer: new Composer(),
    history: deps.history,
    finder: deps.finder,
    links: deps.links,
    committer: new HistoryCommit(deps.screen.cols, deps.links),
    width: deps.screen.cols,
    busy: null,
    queued: [],
    ask: null,
    picker: null,
    pager: null,
    hint: null,
    ctrlCAt: 0,
    escAt: 0,
    lastTypedAt: Number.NEGATIVE_INFINITY,
    guardTimer: null,
    frameNo: 0,
    lastEventAt: 0,
    allowBypassCycle: false,
    allowDontAskCycle: false,
  };
}
