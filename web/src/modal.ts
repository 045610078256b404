// A modal dialog's behaviour, shared by the report dialog and the rules over a game.
import type { JSX } from "preact";
import { useEffect, useRef } from "preact/hooks";

/** A `<dialog>` shown modal while the component is mounted: `focus` picks what gets the focus
 * when it opens, and the focus goes back to what had it when it closes. Escape (and the
 * browser's own cancel) calls `onClose`, and keys pressed in it never reach the page under it
 * (1–9 would play a move). Spread `handlers` on the dialog, with `ref={dialog}`. */
export function useModal(onClose: () => void, focus: () => void): {
  dialog: { current: HTMLDialogElement | null };
  handlers: Pick<JSX.HTMLAttributes<HTMLDialogElement>, "onCancel" | "onKeyDown">;
} {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const box = dialog.current;
    if (!box) return undefined;
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!box.open) box.showModal();
    focus();
    return () => {
      if (box.open) box.close();
      before?.focus({ preventScroll: true });
    };
  }, []);
  const handlers = {
    onCancel: (event: Event) => {
      event.preventDefault();
      onClose();
    },
    onKeyDown: (event: KeyboardEvent) => {
      event.stopPropagation();
      if (event.key === "Escape") {
        event.preventDefault();
        onClose();
      }
    },
  };
  return { dialog, handlers };
}
