// /plugin in the app: the plugins this session loaded, the installed ones and what the
// marketplaces added offer, in a chooser; Enter turns an installed plugin on or off in the user's
// own settings (from the next session: /clear starts one). Installing fetches over git, so it stays
// a command the panel names (khaelor plugin install name@marketplace).
import type { PluginInfo } from "../../agent/types.ts";
import type { AppActions } from "./actions.ts";
import { sessionOf, type AppState } from "./state.ts";

function detail(p: PluginInfo): string {
  const state =
    p.state === "plugin-dir" ? "on (--plugin-dir)" : p.state === "not installed" ? "not installed" : p.on ? "on" : p.state === "enabled" ? (p.project ? "off until you trust this project" : "on from the next session") : "off";
  return [p.version, state, p.description].filter(Boolean).join(" · ");
}

export function showPlugins(state: AppState, actions: Pick<AppActions, "choose" | "flash" | "render">): void {
  const s = sessionOf(state);
  const plugins = s.plugins.list();
  if (plugins.length === 0) {
    state.transcript.notice("No plugins. Add a marketplace and install one: khaelor plugin marketplace add <git URL | owner/repo | path>, then khaelor plugin install name@marketplace; or load a folder with khaelor --plugin-dir <dir>.");
    return;
  }
  actions.choose(
    "Plugins (Enter turns an installed one on or off for the next session; Esc leaves them)",
    plugins.map((p) => ({ label: p.id, detail: detail(p), value: p.id })),
    (id) => {
      const p = plugins.find((x) => x.id === id)!;
      if (p.state === "not installed") return state.transcript.notice(`${id} is not installed: run khaelor plugin install ${id} in a shell (or !khaelor plugin install ${id})`);
      if (p.state === "plugin-dir") return state.transcript.notice(`${id} is loaded with --plugin-dir for this session only; leave the flag out to turn it off`);
      const on = !(p.on || p.state === "enabled");
      try {
        const file = s.plugins.setEnabled(id, on);
        state.transcript.notice(`${id} turned ${on ? "on" : "off"} in ${file}; it takes effect in the next session (/clear starts one)`);
      } catch (e) {
        state.transcript.notice((e as Error).message, "warn");
      }
      actions.render();
    },
  );
}
