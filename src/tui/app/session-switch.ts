// What /clear and /resume say when they switch sessions: short ids (the first 8 characters, which
// --resume accepts as a prefix) and the session's title where it has one, instead of full UUIDs.
import { listSessions } from "../../session/store.ts";

export const shortId = (id: string): string => id.slice(0, 8);

export type SessionSwitch = {
  oldId: string;
  /** False when the old session was empty: closing it removed it, so it cannot be resumed. */
  oldKept: boolean;
  newId: string;
  resumed: boolean;
};

export function sessionSwitchLines(cwd: string, s: SessionSwitch): string[] {
  let titles = new Map<string, string>();
  try {
    titles = new Map(listSessions(cwd).map((x) => [x.id, x.title]));
  } catch {
    // Titles are a nicety: the ids say enough.
  }
  const named = (id: string) => {
    const title = titles.get(id);
    return title ? `${shortId(id)} (${title})` : shortId(id);
  };
  if (s.resumed) return [`Resumed session ${named(s.newId)}`];
  if (!s.oldKept) return [`New session ${shortId(s.newId)}. Nothing was said in the previous one, so it was not kept.`];
  return [`New session ${shortId(s.newId)}. The previous one, ${named(s.oldId)}, stays resumable with:`, `khaelor --resume ${shortId(s.oldId)}`];
}
