import { createContext, useContext, useId, type LabelHTMLAttributes, type ReactNode } from 'react';
import { cn } from './cn';

interface FieldContextValue {
  id: string;
  hintId?: string;
  errorId?: string;
  invalid: boolean;
  required?: boolean;
}

const FieldContext = createContext<FieldContextValue | null>(null);

/**
 * The accessibility wiring a control inside a FormField should carry. Input, Textarea, Select and
 * Checkbox read it automatically; custom controls can spread it.
 */
export function useFieldControl(props: { id?: string; 'aria-describedby'?: string; 'aria-invalid'?: unknown } = {}) {
  const field = useContext(FieldContext);
  if (!field) return {};
  const describedBy = [props['aria-describedby'], field.errorId, field.hintId].filter(Boolean).join(' ') || undefined;
  return {
    id: props.id ?? field.id,
    'aria-describedby': describedBy,
    'aria-invalid': field.invalid ? (true as const) : undefined,
    'aria-required': field.required ? (true as const) : undefined,
  };
}

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn('block text-sm font-medium text-zinc-200', className)} {...props} />;
}

export function FieldError({ id, children }: { id?: string; children?: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} className="flex items-start gap-1.5 text-sm text-red-300">
      <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0" fill="currentColor">
        <path
          fillRule="evenodd"
          d="M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0Zm-8-5a.9.9 0 0 0-.9.9v4.2a.9.9 0 1 0 1.8 0V5.9A.9.9 0 0 0 10 5Zm0 10a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z"
          clipRule="evenodd"
        />
      </svg>
      <span>{children}</span>
    </p>
  );
}

export interface FormFieldProps {
  label: ReactNode;
  /** Help text under the label, read with the control. */
  hint?: ReactNode;
  /** Error message; marks the control aria-invalid and describes it. */
  error?: ReactNode;
  required?: boolean;
  /** Fix the control's id (otherwise generated). */
  id?: string;
  className?: string;
  /** Put the label after the control, on one line (checkboxes). */
  inline?: boolean;
  children: ReactNode;
}

/** Label + control + hint + error, wired with htmlFor, aria-describedby and aria-invalid. */
export function FormField({ label, hint, error, required, id, className, inline, children }: FormFieldProps) {
  const generated = useId();
  const controlId = id ?? `field-${generated}`;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const value: FieldContextValue = { id: controlId, hintId, errorId, invalid: Boolean(error), required };
  const labelEl = (
    <Label htmlFor={controlId} className={inline ? 'font-normal text-zinc-200' : undefined}>
      {label}
      {required && !inline ? (
        <span aria-hidden="true" className="ml-0.5 text-fuchsia-300">
          *
        </span>
      ) : null}
    </Label>
  );
  return (
    <FieldContext.Provider value={value}>
      <div className={cn('space-y-1.5', className)}>
        {inline ? (
          <div className="flex items-start gap-3">
            {children}
            <div className="pt-px">{labelEl}</div>
          </div>
        ) : (
          <>
            {labelEl}
            {children}
          </>
        )}
        {hint ? (
          <p id={hintId} className={cn('text-sm text-zinc-400', inline && 'pl-8')}>
            {hint}
          </p>
        ) : null}
        <FieldError id={errorId}>{error}</FieldError>
      </div>
    </FieldContext.Provider>
  );
}
