/** What the client gallery's action answers a form (the intent it was, its message, what was typed). */
export type ActionAnswer = {
  intent: string;
  error?: string;
  code?: string;
  ok?: boolean;
  /** The field the error belongs to, and what was chosen (the photos' order form, decision 0184). */
  field?: string;
  values?: Record<string, string>;
};
