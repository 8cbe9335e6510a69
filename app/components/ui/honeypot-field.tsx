import { HONEYPOT_FIELD } from "~/lib/contact-forms";

/**
 * The spam trap of a public form: people never see nor reach it; bots fill in every field, and the server
 * drops what comes with it filled (contact-forms.ts).
 */
export function HoneypotField({ formId }: { formId: string }) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={`${formId}-${HONEYPOT_FIELD}`}>Ne pas remplir ce champ</label>
      <input
        id={`${formId}-${HONEYPOT_FIELD}`}
        type="text"
        name={HONEYPOT_FIELD}
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  );
}
