// Vim-style editing of the composer ("editorMode": "vim"): insert mode is the composer as it
// always is; Esc goes to normal mode, where letters are commands: h j k l w b e 0 $ to move, x dd
// dw cw to delete (and change), i a A I o to insert again, u to undo, Enter to send. What normal
// mode does not know falls through to the composer's keys (Ctrl-C, Ctrl-G, the arrows), so
// nothing the app offers is lost; a second Esc in normal mode is the app's Esc (interrupt).
// A function of (state, actions, event), as every key handler.
import type { AppActions } from "./actions.ts";
import type { InputEvent } from "./app-input.ts";
import type { AppState, VimState } from "./state.ts";

/** True when vim took the event; false hands it to the composer's own keys. */
export function vimInput(state: AppState, actions: AppActions, ev: InputEvent): boolean {
  const vim = state.vim;
  if (!vim || state.picker || ev.type === "wheel" || ev.type === "paste") return false;
  const c = state.composer;
  if (vim.mode === "insert") {
    if (ev.type === "key" && ev.name === "escape" && !ev.ctrl && !ev.alt) {
      vim.mode = "normal";
      vim.pending = "";
      // As in vim, leaving insert mode steps back onto the last character typed.
      if (c.cursor > 0 && c.text[c.cursor - 1] !== "\n") c.left();
      actions.render();
      return true;
    }
    return false;
  }
  if (ev.type === "key") {
    if (ev.name === "escape" && vim.pending) {
      vim.pending = "";
      return true;
    }
    vim.pending = "";
    return false; // Enter, Esc (interrupt), Ctrl keys, arrows: the composer's
  }
  // A burst ("Aplease" typed fast is one event): what follows a command that enters insert mode is text.
  const chars = [...ev.text];
  for (let i = 0; i < chars.length; i++) {
    normalKey(state, chars[i]!);
    // normalKey may have switched the mode (TypeScript narrowed it to "normal" above).
    if ((vim.mode as VimState["mode"]) === "insert") {
      c.insert(chars.slice(i + 1).join(""));
      break;
    }
  }
  actions.render();
  return true;
}

function normalKey(state: AppState, ch: string): void {
  const vim = state.vim!;
  const c = state.composer;
  const lineStart = () => c.text.lastIndexOf("\n", c.cursor - 1) + 1;
  const lineEnd = () => {
    const nl = c.text.indexOf("\n", c.cursor);
    return nl < 0 ? c.text.length : nl;
  };
  if (vim.pending) {
    const op = vim.pending;
    vim.pending = "";
    if (op === "d" && ch === "d") {
      // The whole line, with its newline (the one before it on the last line).
      const s = lineStart();
      const e = lineEnd();
      if (e < c.text.length) c.deleteRange(s, e + 1);
      else c.deleteRange(Math.max(0, s - 1), e);
      c.moveTo(Math.min(c.cursor, c.text.length));
      return;
    }
    if (ch === "w") {
      // cw changes to the end of the word (as vim does), dw deletes through the space after it.
      const end = op === "c" && !/\s/.test(c.text[c.cursor] ?? "") ? c.wordEndFrom(c.cursor - 1) : c.nextWordStart(c.cursor);
      c.deleteRange(c.cursor, end);
      if (op === "c") vim.mode = "insert";
    }
    return;
  }
  switch (ch) {
    case "h":
      if (c.cursor > lineStart()) c.left();
      break;
    case "l":
      if (c.cursor < lineEnd() - 1) c.right();
      break;
    case "j":
      if (!c.down()) {
        const next = state.history.next();
        if (next !== null) c.setText(next, 0);
      }
      break;
    case "k":
      if (!c.up()) {
        const prev = state.history.prev(c.text);
        if (prev !== null) c.setText(prev, 0);
      }
      break;
    case "w":
      c.moveTo(c.nextWordStart(c.cursor));
      break;
    case "b":
      c.moveTo(c.prevWordStart(c.cursor));
      break;
    case "e":
      c.moveTo(Math.max(c.cursor, c.wordEndFrom(c.cursor) - 1));
      break;
    case "0":
      c.lineStart();
      break;
    case "$":
      c.moveTo(Math.max(lineStart(), lineEnd() - 1));
      break;
    case "x":
      c.deleteForward();
      break;
    case "d":
    case "c":
      vim.pending = ch;
      break;
    case "u":
      c.undo();
      break;
    case "i":
      vim.mode = "insert";
      break;
    case "a":
      if (c.cursor < lineEnd()) c.right();
      vim.mode = "insert";
      break;
    case "A":
      c.lineEnd();
      vim.mode = "insert";
      break;
    case "I":
      c.lineStart();
      vim.mode = "insert";
      break;
    case "o":
      c.lineEnd();
      c.newline();
      vim.mode = "insert";
      break;
    default:
      // Anything else in normal mode is not typed into the prompt.
      break;
  }
}
