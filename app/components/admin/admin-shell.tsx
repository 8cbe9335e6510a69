import type { ReactNode } from "react";

/** The frame of the sign-in pages: a centred card, no public header (nothing of the site before sign-in). */
export function SignInShell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-dvh items-center justify-center bg-muted px-4 py-12">
      <div className="w-full max-w-md rounded-xl border border-border bg-white p-6 shadow-sm sm:p-8">
        <p className="text-sm font-medium text-muted-foreground">Espace d'administration</p>
        <h1 className="mt-1 text-2xl font-bold">{title}</h1>
        <div className="mt-6">{children}</div>
      </div>
    </main>
  );
}
