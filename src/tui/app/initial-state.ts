// The app's state before a session is attached: empty transcript and composer, nothing asked or open.
import { Composer } from "./composer.ts";
import type { FileFinder } from "./file-finder.ts";
import { HistoryCommit } from "./history-commit.ts";
import type { PromptHistory } from "./history.ts";
import type { AppState } from "./state.ts";
import { Transcript } from "../transcript/transcript.ts";

export function initialState(deps: { cols: number; history: PromptHistory; finder: FileFinder; links: boolean; gitBranch?: string | null }): AppState {
  return {
    session: null,
    ready: false,
    gitBranch: deps.gitBranch ?? null,
    transcript: new Transcript(),
    composer: new Composer(),
    history: deps.history,
    finder: deps.finder,
    links: deps.links,
    committer: new HistoryCommit(deps.cols, deps.links),
    width: deps.cols,
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
