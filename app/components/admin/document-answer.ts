import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";

type Answer = {
  document: string;
  values: Record<string, string>;
  errors: FieldErrors;
  nonce: string;
  message?: ToastMessage;
};

/**
 * What a document form draws: the last answer of its action (typed values, errors), or the stored value
 * (its `version`, the newest revision, redraws the form after a save or a restore).
 */
export function documentFormState(
  document: string,
  stored: Record<string, string>,
  version: string,
  actionData: unknown,
): { values: Record<string, string>; errors: FieldErrors; nonce: string; message?: ToastMessage } {
  const answer =
    actionData && typeof actionData === "object" && "document" in actionData
      ? (actionData as Answer)
      : undefined;
  if (answer?.document === document) return answer;
  return { values: stored, errors: {}, nonce: version };
}
