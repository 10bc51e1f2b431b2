// Images into the composer: a pasted or dropped image file's path, or Ctrl-V's clipboard image;
// and the blocks they become in the message.
import { checkImage, type ImageData } from "../../model/images.ts";
import type { ImageBlock, ImageMediaType } from "../../model/types.ts";
import { loadImageFile } from "../../workspace/image-file.ts";
import type { AppActions } from "./actions.ts";
import { pastedImagePaths } from "./pasted-paths.ts";
import type { AppState } from "./state.ts";

/** The images a paste names (null: the paste is text). */
export function pastedImages(text: string, cwd: string): { ok: true; images: ImageData[] } | { ok: false; reason: string } | null {
  const paths = pastedImagePaths(text, cwd, process.env.HOME);
  if (!paths) return null;
  const images: ImageData[] = [];
  for (const p of paths) {
    const r = loadImageFile(p);
    if (r.ok) images.push(r.image);
    else if (r.notImage) return null; // not an image, or no such file: the paste is text
    else return { ok: false, reason: r.reason };
  }
  return { ok: true, images };
}

/** Ctrl-V: the clipboard's image joins the composer, or a flash says why not. */
/** Ctrl-V where no clipboard tool was found: said once (the app remembers it said so). */
export function noClipboardNotice(st: AppState, app: { requestRender(): void }): void {
  st.transcript.notice("Ctrl-V pastes an image from the clipboard, but no clipboard tool was found here (wl-paste under Wayland, xclip under X, osascript on macOS). Paste or drop an image file's path instead.", "info");
  app.requestRender();
}

export function pasteClipboardImage(st: AppState, actions: Pick<AppActions, "flash"> & { requestRender(): void }, read: () => Promise<Buffer>): void {
  read().then(
    (bytes) => {
      const r = checkImage("clipboard.png", bytes);
      if (r.ok) {
        st.composer.attachImage({ ...r.image, name: `clipboard${extensionOf(r.image.mediaType)}` });
        st.history.resetWalk();
      } else if (r.notImage) actions.flash(bytes.length === 0 ? "the clipboard holds no image" : "the clipboard holds no PNG, JPEG, GIF or WebP image");
      else st.transcript.notice(r.reason, "warn");
      actions.requestRender();
    },
    (e: unknown) => actions.flash(`no image on the clipboard (${e instanceof Error ? e.message : String(e)})`, 4000),
  );
}

export function imageBlock(i: ImageData): ImageBlock {
  return { type: "image", source: { type: "base64", media_type: i.mediaType, data: i.bytes.toString("base64") } };
}

const extensionOf = (t: ImageMediaType) => (t === "image/jpeg" ? ".jpg" : `.${t.slice("image/".length)}`);
