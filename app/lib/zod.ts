import { z } from "zod";

// Zod compiles object parsers with `new Function` when it can; the Content-Security-Policy forbids eval, so
// browsers would report a violation on every form page. The interpreter is plenty fast for forms.
z.config({ jitless: true });

export { z };
