// Token arithmetic for the model's view: how big the window is, how close we are to it.
import { modelInfo } from "../model/models.ts";

/** For a model missing from src/model/models.ts: the smallest window of any current Claude model. */
const FALLBACK_WINDOW = 200_000;

export const contextWindowFor = (model: string): number => modelInfo(model)?.contextWindow ?? FALLBACK_WINDOW;

/** Characters per token for estimates of text not yet measured by the API (prose ~4, code nearer 3; erring small errs toward compacting early). */
export const CHARS_PER_TOKEN = 3.5;
export const estimateTokens = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);
