import { isAPIError } from "better-auth/api";
import { ShieldCheck } from "lucide-react";
import { data, Form, useNavigation } from "react-router";
import type { Route } from "./+types/security";
import { Field, Input } from "~/components/admin/field";
import { FormAlert } from "~/components/admin/form-alert";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import type { ToastMessage } from "~/lib/toast";
import { requireAdmin } from "~/server/admin/guard.server";
import { totpSetup, type TotpSetup } from "~/server/admin/two-factor.server";
import { auth } from "~/server/auth.server";
import { redirectWithToast } from "~/server/toast.server";

export const meta: Route.MetaFunction = () => [{ title: "Sécurité - Administration" }];

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  return { email: admin.email, twoFactorEnabled: admin.twoFactorEnabled };
}

type ActionData = {
  step?: "confirm";
  setup?: TotpSetup;
  backupCodes?: string[];
  toast?: ToastMessage;
};

const WRONG_PASSWORD: ToastMessage = {
  type: "error",
  title: "Erreur",
  description: "Mot de passe incorrect",
};

function forward(headers: Headers): Headers {
  const out = new Headers();
  for (const cookie of headers.getSetCookie()) out.append("Set-Cookie", cookie);
  return out;
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const api = (await auth()).api;

  if (intent === "enable") {
    if (admin.twoFactorEnabled) return data<ActionData>({}, { status: 400 });
    try {
      const result = await api.enableTwoFactor({
        body: { password: String(formData.get("password") ?? "") },
        headers: request.headers,
      });
      const { totpURI, backupCodes } = result as { totpURI: string; backupCodes: string[] };
      return data<ActionData>({ step: "confirm", setup: await totpSetup(totpURI), backupCodes });
    } catch (error) {
      if (isAPIError(error)) return data<ActionData>({ toast: WRONG_PASSWORD }, { status: 400 });
      throw error;
    }
  }

  if (intent === "confirm") {
    const totpURI = String(formData.get("totpURI") ?? "");
    try {
      const result = await api.verifyTOTP({
        body: { code: String(formData.get("code") ?? "").replace(/\s+/g, "") },
        headers: request.headers,
        returnHeaders: true,
      });
      return redirectWithToast(
        "/admin/securite",
        { type: "success", title: "Double authentification activée" },
        { headers: forward(result.headers) },
      );
    } catch (error) {
      if (!isAPIError(error) || !totpURI.startsWith("otpauth://")) throw error;
      return data<ActionData>(
        {
          step: "confirm",
          setup: await totpSetup(totpURI),
          toast: { type: "error", title: "Erreur", description: "Code invalide" },
        },
        { status: 400 },
      );
    }
  }

  if (intent === "disable") {
    try {
      const result = await api.disableTwoFactor({
        body: { password: String(formData.get("password") ?? "") },
        headers: request.headers,
        returnHeaders: true,
      });
      return redirectWithToast(
        "/admin/securite",
        { type: "success", title: "Double authentification désactivée" },
        { headers: forward(result.headers) },
      );
    } catch (error) {
      if (isAPIError(error)) return data<ActionData>({ toast: WRONG_PASSWORD }, { status: 400 });
      throw error;
    }
  }
  return data<ActionData>({}, { status: 400 });
}

function PasswordForm({ intent, label, busy }: { intent: string; label: string; busy: boolean }) {
  return (
    <Form method="post" className="max-w-sm space-y-4">
      <input type="hidden" name="intent" value={intent} />
      <Field name="password" label="Mot de passe actuel">
        {(props) => <Input {...props} type="password" autoComplete="current-password" required />}
      </Field>
      <Button type="submit" disabled={busy}>
        {label}
      </Button>
    </Form>
  );
}

export default function Security({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  useServerToast(actionData?.toast);
  const setup = actionData?.step === "confirm" ? actionData.setup : undefined;

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
                    className="rounded bg-muted px-2 py-1 font-mono break-all"
                  >
                    {setup.secret}
                  </code>
                </p>
              </li>
              {actionData?.backupCodes ? (
                <li>
                  <p>
                    Notez ces <strong>codes de secours</strong> et gardez-les en lieu sûr : chacun
                    permet une connexion si vous perdez votre téléphone. Ils ne seront plus
                    affichés.
                  </p>
                  <ul
                    aria-label="Codes de secours"
                    className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm sm:grid-cols-5"
                  >
                    {actionData.backupCodes.map((code) => (
                      <li key={code} className="rounded bg-muted px-2 py-1 text-center">
                        {code}
                      </li>
                    ))}
                  </ul>
                </li>
              ) : null}
              <li>
                <p>Pour terminer, saisissez le code à 6 chiffres affiché par l'application.</p>
                <Form method="post" className="mt-3 max-w-sm space-y-4">
                  <input type="hidden" name="intent" value="confirm" />
                  <input type="hidden" name="totpURI" value={setup.totpURI} />
                  <Field name="code" label="Code de vérification">
                    {(props) => (
                      <Input
                        {...props}
                        inputMode="numeric"
                        autoComplete="one-time-code"
                        pattern="[0-9 ]{6,7}"
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
            <PasswordForm intent="enable" label="Activer la double authentification" busy={busy} />
          </>
        )}
      </section>
    </div>
  );
}
