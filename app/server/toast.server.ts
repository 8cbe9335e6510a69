import { createCookie, redirect } from "react-router";
import { z } from "zod";
import type { ToastMessage } from "~/lib/toast";

// A toast that must survive a redirect (a full page load, or a form posted without JavaScript) travels in
// this short-lived cookie and is shown, then cleared, by the next page. STYLE.md habit 7.
const toastCookie = createCookie("toast", {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  maxAge: 60,
});

const toastSchema = z.object({
  type: z.enum(["success", "error", "info"]),
  title: z.string(),
  description: z.string().optional(),
});

export async function redirectWithToast(url: string, toast: ToastMessage, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastCookie.serialize(toast, { secure: false }));
  return redirect(url, { ...init, headers });
}

/** Reads the pending toast, if any, and the header that clears it. */
export async function readToast(
  request: Request,
): Promise<{ toast: ToastMessage | null; headers: Headers }> {
  const headers = new Headers();
  const raw: unknown = await toastCookie.parse(request.headers.get("Cookie"));
  if (raw === null || raw === undefined) return { toast: null, headers };
  headers.append("Set-Cookie", await toastCookie.serialize("", { maxAge: 0 }));
  const parsed = toastSchema.safeParse(raw);
  return { toast: parsed.success ? parsed.data : null, headers };
}
