import { type ReactNode, useEffect, useRef } from "react";
import { Form } from "react-router";
import type { ActionAnswer } from "./client-answer";

/** A page of the client gallery that only says something (missing, expired). */
export function Notice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <h1 className="mb-4 font-serif text-3xl font-semibold">{title}</h1>
      {children}
    </div>
  );
}

export function CodeForm({ title, answer }: { title: string; answer?: ActionAnswer }) {
  const error = answer?.intent === "code" ? answer.error : undefined;
  const field = useRef<HTMLInputElement>(null);
  // The page exists to take this code: the client types it at once (decision 0134).
  useEffect(() => field.current?.focus(), []);
  return (
    <div className="mx-auto max-w-md px-4 py-16">
      <h1 className="mb-2 font-serif text-3xl font-semibold">{title}</h1>
      <p className="mb-6 text-stone-700">
        Cette galerie est privée. Saisissez le code d'accès à 8 caractères reçu par e-mail.
      </p>
      <Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="intent" value="code" />
        <div>
          <label htmlFor="code" className="mb-1 block font-medium">
            Code d'accès
          </label>
          <input
            id="code"
            name="code"
            ref={field}
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            required
            maxLength={20}
            defaultValue={answer?.code ?? ""}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "code-error" : undefined}
            className="w-full rounded-md border border-stone-400 bg-white px-3 py-2 font-mono text-lg tracking-widest uppercase"
          />
          {error ? (
            <p id="code-error" role="alert" className="mt-2 text-sm font-medium text-red-800">
              {error}
            </p>
          ) : null}
        </div>
        <button
          type="submit"
          className="min-h-11 rounded-md bg-stone-900 px-5 py-2 font-semibold text-white hover:bg-stone-700 focus-visible:outline-2 focus-visible:outline-offset-2"
        >
          Voir mes photos
        </button>
      </Form>
    </div>
  );
}
