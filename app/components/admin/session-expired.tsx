import type { SessionExpiredAnswer } from "~/lib/session-expired";
import { buttonVariants } from "~/components/ui/button";

/**
 * The answer to an admin form posted after the session ended (decision 0133): said in French, with the way
 * to sign in again (in another tab, so this page keeps what she typed) and the same post, ready to go again.
 */
export function SessionExpired({ answer }: { answer: SessionExpiredAnswer }) {
  const kept = answer.fields.length > 0;
  return (
    <main className="mx-auto max-w-2xl px-6 py-24">
      <title>Session expirée</title>
      <h1 className="text-3xl font-bold">Votre session a expiré</h1>
      <p className="mt-4 text-lg">
        Ce que vous venez d'envoyer n'a pas été enregistré : il faut être connecté·e pour cela.
      </p>
      {kept ? (
        <ol className="mt-6 list-decimal space-y-4 pl-6">
          <li>
            <a
              className="underline underline-offset-4"
              href="/admin/login"
              target="_blank"
              rel="noopener"
            >
              Se reconnecter
            </a>{" "}
            (dans un nouvel onglet : cette page garde ce que vous avez saisi).
          </li>
          <li>
            Revenez ici, puis :
            <form method="post" action={answer.action} className="mt-3">
              {answer.fields.map(([name, value], index) => (
                <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
              ))}
              <button type="submit" className={buttonVariants()}>
                Envoyer à nouveau
              </button>
            </form>
          </li>
        </ol>
      ) : (
        <p className="mt-6">
          <a className={buttonVariants()} href="/admin/login">
            Se reconnecter
          </a>
        </p>
      )}
      {answer.dropped ? (
        <p className="mt-6 text-muted-foreground">
          {kept
            ? "Les fichiers et les mots de passe envoyés ne sont pas gardés : il faudra les choisir ou les saisir à nouveau."
            : "Ce que vous aviez saisi n'a pas pu être gardé : il faudra le saisir à nouveau après vous être reconnecté·e."}
        </p>
      ) : null}
    </main>
  );
}
