import { Eye } from "lucide-react";
import type { FormEvent } from "react";
import { Button } from "~/components/ui/button";

/**
 * « Prévisualiser » of a form: posts it with `intent=preview` to a new tab, where the action answers with
 * the public page showing the unsaved values. Without JavaScript the browser does it itself (formtarget);
 * with it, the form's `onSubmit` must be `submitPreviewToNewTab`, or React Router's <Form> would post it here
 * and leave the form for the public page.
 */
export function PreviewButton({ disabled = false }: { disabled?: boolean }) {
  return (
    <Button
      type="submit"
      name="intent"
      value="preview"
      variant="outline"
      formTarget="_blank"
      disabled={disabled}
    >
      <Eye aria-hidden="true" />
      Prévisualiser
      <span className="sr-only"> (nouvel onglet)</span>
    </Button>
  );
}

/**
 * The `onSubmit` of a React Router <Form> holding a PreviewButton: that button's submission is the
 * browser's own (a native submit() fires no submit event), with its intent and target; any other goes on
 * to React Router.
 */
export function submitPreviewToNewTab(event: FormEvent<HTMLFormElement>) {
  const submitter = (event.nativeEvent as SubmitEvent).submitter;
  if (submitter?.getAttribute("formtarget") !== "_blank") return;
  event.preventDefault();
  const form = event.currentTarget;
  const intent = document.createElement("input");
  intent.type = "hidden";
  intent.name = "intent";
  intent.value = submitter.getAttribute("value") ?? "preview";
  form.append(intent);
  form.target = "_blank";
  HTMLFormElement.prototype.submit.call(form);
  intent.remove();
  form.removeAttribute("target");
}
