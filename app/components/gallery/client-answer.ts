/** What the client gallery's action answers a form (the intent it was, its message, what was typed). */
export type ActionAnswer = { intent: string; error?: string; code?: string; ok?: boolean };
