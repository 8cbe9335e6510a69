import type { FieldErrors } from "~/lib/forms";
import type { ToastMessage } from "~/lib/toast";

/**
 * What a form's action answers when it does not redirect (decision 0060, one shape for every form:
 * decision 0153): `invalid` (4xx: the fields, or `message`, say what to correct), `failed` (5xx: a
 * toast or `message` says so), `more` (200: the form again with a row added or moved, nothing saved).
 * `values` re-fill the form, so nothing typed is lost. A form adds what only it needs (`Extra`: the next
 * free times of a refused slot, which of a page's forms answered).
 */
export type FormAnswer<Extra extends object = object> = {
  status: "invalid" | "failed" | "more";
  values: Record<string, string>;
  errors?: FieldErrors;
  /** One sentence above the form about the whole of it. */
  message?: string;
  toast?: ToastMessage;
} & Extra;

/** `invalid` below 500, `failed` from 500: what an answer's HTTP status says of it. */
export function answerStatus(httpStatus: number): "invalid" | "failed" {
  return httpStatus >= 500 ? "failed" : "invalid";
}
