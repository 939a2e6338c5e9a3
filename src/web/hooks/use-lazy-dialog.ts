import { useId, useRef, useState } from 'react';

/**
 * A button that opens a dialog whose code loads on first use (the phone menu, the vault's filter
 * sheet): pointing at or focusing the button starts the download, pressing it opens the dialog.
 * Spread `triggerProps` on the button; render the lazy dialog only once `wanted`, with `open`,
 * `setOpen`, `id`, and `trigger` to return focus to.
 */
export function useLazyDialog(load: () => Promise<unknown>) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const id = useId();
  const preload = () => void load();
  return {
    open,
    setOpen,
    wanted,
    trigger,
    id,
    triggerProps: {
      ref: trigger,
      'aria-haspopup': 'dialog' as const,
      'aria-expanded': open,
      'aria-controls': open ? id : undefined,
      onPointerEnter: preload,
      onFocus: preload,
      onClick: () => {
        setWanted(true);
        setOpen(true);
      },
    },
  };
}
