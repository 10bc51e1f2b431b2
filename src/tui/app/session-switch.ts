// What /clear and /resume say when they switch sessions: short ids (the first 8 characters, which
// --resume accepts as a prefix) and the session's title where it has one, instead of full UUIDs.
import { listSessions } from "../../session/store.ts";

export const shortId = (id: string): string => id.slice(0, 8);

export function sessionSwitchLines(cwd: string, oldId: string, newId: string, resumed: boolean): string[] {
  let titles = new Map<string, string>();
  try {
    titles = new Map(listSessions(cwd).map((s) => [s.id, s.title]));
  } catch {
    // Titles are a nicety: the ids say enough.
  }
  const named = (id: string) => {
    const title = titles.get(id);
    return title ? `${shortId(id)} (${title})` : shortId(id);
  };
  if (resumed) return [`Resumed session ${named(newId)}`];
  return [`New session ${shortId(newId)}. The previous one, ${named(oldId)}, stays resumable with:`, `khaelor --resume ${shortId(oldId)}`];
}
