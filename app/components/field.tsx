'use client';
import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

type FieldProps = { label: string; error?: string | null; hint?: ReactNode; ok?: string | null } & InputHTMLAttributes<HTMLInputElement>;

/** A labelled input whose error (or hint) sits right under it and is announced with it. */
export function Field({ label, error, hint, ok, id, ...input }: FieldProps) {
  const auto = useId();
  const inputId = id ?? auto;
  const noteId = `${inputId}-note`;
  const note = error ?? ok ?? hint;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input id={inputId} aria-invalid={error ? true : undefined} aria-describedby={note ? noteId : undefined} {...input} />
      <p id={noteId} className={error ? 'field-error' : ok ? 'field-ok' : 'field-hint'} role={error ? 'alert' : undefined}>
        {note ?? '\u00a0'}
      </p>
    </div>
  );
}
