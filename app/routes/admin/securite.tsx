import { Copy, Download, Printer, ShieldCheck } from "lucide-react";
import { useEffect, useRef } from "react";
import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/securite";
import { Field, Input } from "~/components/admin/field";
import { FormAlert } from "~/components/admin/form-alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { useServerToast } from "~/components/ui/server-toast";
import { useAdminBrand } from "~/components/admin/admin-brand";
import { useHydrated } from "~/lib/use-hydrated";

export { action, loader } from "./securite.server";

export const meta: Route.MetaFunction = () => [{ title: "Sécurité - Administration" }];

/** Asks the password before two-factor is turned on or off; the server checks it and says why under it. */
function PasswordForm({
  intent,
  label,
  busy,
  error,
}: {
  intent: string;
  label: string;
  busy: boolean;
  error?: string;
}) {
  return (
    <Form method="post" noValidate className="max-w-sm space-y-4">
      <input type="hidden" name="intent" value={intent} />
      <Field name="password" label="Mot de passe actuel" error={error}>
        {(props) => <Input {...props} type="password" autoComplete="current-password" required />}
      </Field>
      <Button type="submit" disabled={busy}>
        {label}
      </Button>
    </Form>
  );
}

/** The manual key in groups of 4 characters, easier to copy by hand. */
export function groupedKey(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(" ") ?? secret;
}

/** The backup codes as a text file to keep (downloaded, printed or copied). */
function backupCodesText(brand: string, email: string, codes: string[]): string {
  return [
    `Codes de secours - ${brand} (administration)`,
    `Compte : ${email}`,
    "",
    "Chaque code permet une seule connexion si vous n'avez plus votre application d'authentification.",
    "",
    ...codes,
    "",
  ].join("\n");
}

function BackupCodes({ email, codes }: { email: string; codes: string[] }) {
  // Copy and print need JavaScript: the buttons appear once it runs (the download link works without).
  const hydrated = useHydrated();
  const text = backupCodesText(useAdminBrand(), email, codes);

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast.success("Codes copiés");
    } catch {
      toast.error("Erreur", { description: "Impossible de copier les codes" });
    }
  }

  return (
    <>
      <p>
        Enregistrez ces <strong>codes de secours</strong> et gardez-les en lieu sûr : chacun permet
        une connexion si vous perdez votre téléphone. Ils restent affichés ici jusqu'à l'activation,
        puis ne le seront plus.
      </p>
      <ul
        aria-label="Codes de secours"
        className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-5"
      >
        {codes.map((code) => (
          <li key={code} className="rounded bg-muted px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ul>
      <div className="mt-3 flex flex-wrap gap-2 print:hidden">
        <a
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="codes-de-secours.txt"
          className={buttonVariants({ variant: "outline", size: "sm" })}
        >
          <Download aria-hidden="true" />
          Télécharger (.txt)
        </a>
        {hydrated ? (
          <>
            <Button type="button" variant="outline" size="sm" onClick={() => void copy()}>
              <Copy aria-hidden="true" />
              Copier les codes
            </Button>
            <Button type="button" variant="outline" size="sm" onClick={() => window.print()}>
              <Printer aria-hidden="true" />
              Imprimer
            </Button>
          </>
        ) : null}
      </div>
    </>
  );
}

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  useServerToast(actionData?.toast);
  const setup = actionData?.step === "confirm" ? actionData.setup : undefined;
  const errors = actionData?.errors ?? {};

  // The code field takes the focus when the set-up appears, and again after a refused code.
  const codeForm = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!setup) return;
    const form = codeForm.current;
    const target =
      form?.querySelector<HTMLInputElement>("[aria-invalid=true]") ??
      form?.querySelector<HTMLInputElement>("input[name=code]");
    target?.focus();
    if (target?.name === "code") target.select();
  }, [setup, actionData]);

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <h1 className="text-3xl font-bold">Sécurité</h1>
      <section className="space-y-4 rounded-xl border border-border bg-white p-5 sm:p-6">
        <h2 className="flex items-center gap-2 text-xl font-semibold">
          <ShieldCheck aria-hidden="true" className="size-5" />
          Double authentification
        </h2>
        <FormAlert message={actionData?.toast} />
        {loaderData.twoFactorEnabled ? (
          <>
            <p>
              La double authentification est <strong>activée</strong> pour {loaderData.email} : la
              connexion demande un code de votre application d'authentification (ou un code de
              secours).
            </p>
            <p className="text-sm text-muted-foreground">
              Pour la désactiver, confirmez votre mot de passe.
            </p>
            <PasswordForm
              intent="disable"
              label="Désactiver la double authentification"
              busy={busy}
              error={errors.password}
            />
          </>
        ) : setup ? (
          <div className="space-y-5">
            <ol className="list-decimal space-y-5 pl-5">
              <li>
                <p>
                  Scannez ce QR code avec votre application d'authentification (Google
                  Authenticator, Aegis…).
                </p>
                <img
                  src={setup.qrCode}
                  alt="QR code de configuration de l'application d'authentification"
                  width={200}
                  height={200}
                  className="mt-3 rounded-md border border-border"
                />
                <p className="mt-3 text-sm">
                  Ou saisissez cette clé à la main :{" "}
                  <code
                    data-testid="cle-totp"
                    className="rounded bg-muted px-2 py-1 font-mono tracking-wide break-words"
                  >
                    {groupedKey(setup.secret)}
                  </code>
                </p>
              </li>
              {actionData?.backupCodes ? (
                <li>
                  <BackupCodes email={loaderData.email} codes={actionData.backupCodes} />
                </li>
              ) : null}
              <li>
                <p>Pour terminer, saisissez le code à 6 chiffres affiché par l'application.</p>
                <Form ref={codeForm} method="post" noValidate className="mt-3 max-w-sm space-y-4">
                  <input type="hidden" name="intent" value="confirm" />
                  <input type="hidden" name="totpURI" value={setup.totpURI} />
                  <div className="space-y-1.5">
                    <label className="flex items-start gap-2 text-sm">
                      <input
                        type="checkbox"
                        name="saved"
                        required
                        aria-invalid={errors.saved ? true : undefined}
                        aria-describedby={errors.saved ? "champ-saved-erreur" : undefined}
                        className="mt-0.5 size-5 shrink-0"
                      />
                      J'ai enregistré mes codes de secours en lieu sûr
                    </label>
                    {errors.saved ? (
                      <p id="champ-saved-erreur" className="text-sm text-destructive">
                        {errors.saved}
                      </p>
                    ) : null}
                  </div>
                  <Field name="code" label="Code de vérification" error={errors.code}>
                    {(props) => (
                      <Input
                        {...props}
                        inputMode="numeric"
                        autoComplete="one-time-code"
                        maxLength={7}
                        required
                      />
                    )}
                  </Field>
                  <Button type="submit" disabled={busy}>
                    Activer
                  </Button>
                </Form>
              </li>
            </ol>
          </div>
        ) : (
          <>
            <p>
              La double authentification protège le compte même si le mot de passe est découvert : à
              chaque connexion, un code à 6 chiffres de votre téléphone est demandé.
            </p>
            <PasswordForm
              intent="enable"
              label="Activer la double authentification"
              busy={busy}
              error={errors.password}
            />
          </>
        )}
      </section>
    </div>
  );
}
