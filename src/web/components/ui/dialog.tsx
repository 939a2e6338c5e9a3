import { useState, type ReactNode, type RefObject } from 'react';
import * as RadixDialog from 'radix-ui/dialog';
import { X } from 'lucide-react';
import { Button, type ButtonVariant } from './button';
import { cn } from './cn';

export interface DialogProps {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** Element that opens the dialog (rendered as the Radix trigger, so focus returns to it). */
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons row at the bottom. */
  footer?: ReactNode;
  className?: string;
}

const overlay = 'fixed inset-0 z-40 bg-black/70 backdrop-blur-sm data-[state=open]:animate-fade-in';

/** A modal dialog: focus is trapped inside, Escape closes it, focus returns to the trigger. */
/** A caller's own max-w-* must replace the default, not compete with it in the stylesheet's order. */
const setsWidth = (className?: string) => /(^|\s)([a-z0-9]+:)*max-w-/.test(className ?? '');

export function Dialog({ open, onOpenChange, trigger, title, description, children, footer, className }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger> : null}
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlay} />
        <RadixDialog.Content
          className={cn(
            'fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2',
            !setsWidth(className) && 'max-w-lg',
            'overflow-y-auto rounded-2xl border border-white/10 bg-surface p-6 text-zinc-100 shadow-2xl shadow-black/60',
            'data-[state=open]:animate-fade-in',
            className,
          )}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="pr-8">
            <RadixDialog.Title className="text-lg font-semibold text-white">{title}</RadixDialog.Title>
            {description ? (
              <RadixDialog.Description className="mt-1.5 text-sm text-zinc-300">{description}</RadixDialog.Description>
            ) : null}
          </div>
          {children ? <div className="mt-4">{children}</div> : null}
          {footer ? <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{footer}</div> : null}
          <RadixDialog.Close asChild>
            <Button variant="ghost" size="icon" className="absolute top-3 right-3 size-9" aria-label="Close">
              <X aria-hidden="true" className="size-5" />
            </Button>
          </RadixDialog.Close>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

export interface ConfirmDialogProps {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
  variant?: Extract<ButtonVariant, 'primary' | 'danger'>;
  /** May return a promise: the button shows progress and the dialog closes when it resolves. */
  onConfirm: () => unknown;
}

/** Asks before doing something that matters. Stays open (and shows the error toast elsewhere) if onConfirm throws. */
export function ConfirmDialog({
  open: openProp,
  onOpenChange,
  trigger,
  title,
  description,
  children,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  variant = 'primary',
  onConfirm,
}: ConfirmDialogProps) {
  const [innerOpen, setInnerOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const open = openProp ?? innerOpen;
  const setOpen = (next: boolean) => {
    if (busy) return;
    setInnerOpen(next);
    onOpenChange?.(next);
  };
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      setInnerOpen(false);
      onOpenChange?.(false);
    } catch {
      // The caller reports the failure; keep the dialog open so the user can retry or cancel.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={trigger}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="secondary" onClick={() => setOpen(false)} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button variant={variant} onClick={confirm} loading={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}

export interface SheetProps {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  title: ReactNode;
  /** Hide the title visually (it is still the dialog's accessible name). */
  hideTitle?: boolean;
  /** 'bottom': a phone sheet rising from the bottom edge (e.g. a page's filters). */
  side?: 'left' | 'right' | 'bottom';
  /** The close button's accessible name. */
  closeLabel?: string;
  children?: ReactNode;
  className?: string;
  /**
   * Where focus goes back to on close when the opener is not passed as `trigger` (a button that
   * existed before this sheet's code was loaded).
   */
  returnFocus?: RefObject<HTMLElement | null>;
  /** The content's id, for the opener's aria-controls. */
  id?: string;
}

/** A panel sliding in from an edge (mobile menus, phone filter sheets). */
export function Sheet({
  open,
  onOpenChange,
  trigger,
  title,
  hideTitle,
  side = 'right',
  closeLabel = 'Close menu',
  children,
  className,
  returnFocus,
  id,
}: SheetProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <RadixDialog.Trigger asChild>{trigger}</RadixDialog.Trigger> : null}
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={overlay} />
        <RadixDialog.Content
          id={id}
          aria-describedby={undefined}
          onCloseAutoFocus={
            returnFocus
              ? (e) => {
                  e.preventDefault();
                  returnFocus.current?.focus();
                }
              : undefined
          }
          className={cn(
            'fixed z-50 flex flex-col overflow-y-auto border-white/10 bg-surface p-5 shadow-2xl shadow-black/60',
            side === 'bottom'
              ? 'inset-x-0 bottom-0 max-h-[85dvh] rounded-t-2xl border-t pb-[max(1.25rem,env(safe-area-inset-bottom))] data-[state=open]:animate-sheet-up'
              : 'inset-y-0 w-[min(20rem,88vw)]',
            side === 'right' && 'right-0 border-l data-[state=open]:animate-sheet-in',
            side === 'left' && 'left-0 border-r data-[state=open]:animate-fade-in',
            className,
          )}
        >
          <div className="mb-4 flex items-center justify-between gap-4">
            <RadixDialog.Title className={cn('text-base font-semibold text-white', hideTitle && 'sr-only')}>
              {title}
            </RadixDialog.Title>
            <RadixDialog.Close asChild>
              <Button variant="ghost" size="icon" className="ml-auto size-9" aria-label={closeLabel}>
                <X aria-hidden="true" className="size-5" />
              </Button>
            </RadixDialog.Close>
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** Closes the surrounding Dialog or Sheet when its child is activated (e.g. a nav link). */
export const DialogClose = RadixDialog.Close;
