import type { Route } from "./+types/paiement";
import { data } from "react-router";
import type { Documents } from "~/content/schemas";
import { documentValues } from "~/lib/document-forms";
import { paymentSettingsForm, paymentSettingsProblems } from "~/lib/payments/settings-form";
import { requireAdmin } from "~/server/admin/guard.server";
import { acceptedDepositMethods } from "~/lib/booking/deposit";
import { unpayableDepositWarnings } from "~/server/booking/session-type-store.server";
import { loadDocument } from "~/server/content/content-store.server";
import { documentFormAction, documentHistory } from "~/server/content/document-form.server";
import { env } from "~/server/env.server";
import { formatLongDateTimeFr } from "~/lib/dates";
import {
  cardKeysInForce,
  hasCardKeys,
  registerOwnerCardKeys,
  removeOwnerCardKeys,
  type CardPaymentsUnderway,
} from "~/server/payments/card.server";
import { SECRET_KEY, WEBHOOK_SECRET } from "~/server/payments/payment-keys.server";
import { lastProviderEvent } from "~/server/payments/inbox.server";
import { redirectWithToast } from "~/server/toast.server";
import type { z } from "~/lib/zod";

const PAGE = "/admin/reglages/paiement";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const [settings, history, keys, lastEvent] = await Promise.all([
    loadDocument("payments"),
    documentHistory("payments", request),
    cardKeysInForce(),
    lastProviderEvent("stripe"),
  ]);
  // Her session types whose deposit she can no longer be paid (decision 0186): they book online no more.
  const depositWarnings = await unpayableDepositWarnings(acceptedDepositMethods(settings));
  return {
    values: documentValues("payments", settings),
    history,
    keys,
    lastEvent,
    depositWarnings,
  };
}

/** The card's keys form: its values kept and a French message by field when refused. */
type KeysAnswer = {
  keysForm: true;
  values: { secretKey: string; webhookSecret: string };
  errors: Partial<Record<"secretKey" | "webhookSecret", string>>;
};

/**
 * Why the keys stay for now, and until when: « Des paiements par carte sont en cours (2) : retirez les
 * clés quand ils seront terminés, après le 3 décembre 2026 à 14:32. »
 */
function underwayMessage(underway: CardPaymentsUnderway, what: "retirez" | "changez") {
  const parts: string[] = [];
  if (underway.payments > 0) {
    // The expiry job closes a checkout within the minute after its end.
    const after = underway.until
      ? `, après le ${formatLongDateTimeFr(new Date(underway.until.getTime() + 2 * 60_000))}`
      : "";
    parts.push(
      `Des paiements par carte sont en cours (${underway.payments}) : ${what} les clés quand ils seront terminés${after}.`,
    );
  }
  if (underway.refunds > 0) {
    parts.push(
      `Des remboursements par carte attendent la confirmation de Stripe (${underway.refunds}) : ${what} les clés quand ils seront faits (quelques jours au plus).`,
    );
  }
  return parts.join(" ");
}

async function saveKeys(formData: FormData) {
  const secretKey = String(formData.get("secretKey") ?? "").trim();
  const webhookSecret = String(formData.get("webhookSecret") ?? "").trim();
  const errors: KeysAnswer["errors"] = {};
  if (secretKey === "") errors.secretKey = "Collez la clé secrète de votre compte Stripe";
  else if (!SECRET_KEY.test(secretKey)) {
    errors.secretKey =
      "Ce n'est pas une clé secrète Stripe : elle commence par sk_live_ ou sk_test_ (Développeurs › Clés API)";
  }
  if (webhookSecret !== "" && !WEBHOOK_SECRET.test(webhookSecret)) {
    errors.webhookSecret = "Ce n'est pas un secret de signature : il commence par whsec_";
  }
  if (Object.keys(errors).length > 0) {
    // The secret key is never sent back to the page, even refused: it is typed again.
    return data<KeysAnswer>(
      { keysForm: true, values: { secretKey: "", webhookSecret: "" }, errors },
      { status: 400 },
    );
  }
  const outcome = await registerOwnerCardKeys(
    { secretKey, webhookSecret: webhookSecret === "" ? null : webhookSecret },
    { siteUrl: env().SITE_URL },
  );
  if (typeof outcome === "object") {
    return data<KeysAnswer>(
      {
        keysForm: true,
        values: { secretKey: "", webhookSecret: "" },
        errors: { secretKey: underwayMessage(outcome, "changez") },
      },
      { status: 409 },
    );
  }
  if (outcome !== "saved") {
    const messages = {
      refused:
        "Stripe refuse cette clé : recopiez-la depuis votre tableau de bord Stripe (Développeurs › Clés API)",
      "address-refused": `Stripe n'accepte pas l'adresse du site pour ses notifications (${env().SITE_URL}) : le site doit être en ligne, en https`,
      unreachable:
        "Stripe ne répond pas : réessayez dans un instant, ou collez aussi le secret de signature",
    } as const;
    return data<KeysAnswer>(
      {
        keysForm: true,
        values: { secretKey: "", webhookSecret: "" },
        errors: { secretKey: messages[outcome] },
      },
      { status: outcome === "unreachable" ? 503 : 400 },
    );
  }
  return redirectWithToast(PAGE, {
    type: "success",
    title: "Clés Stripe enregistrées",
    description: secretKey.includes("_test_")
      ? "Mode test : aucun paiement réel ne sera encaissé."
      : "Les paiements par carte sont encaissés sur votre compte Stripe.",
  });
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const formData = await request.formData();
  switch (formData.get("intent")) {
    case "save-keys":
      return saveKeys(formData);
    case "remove-keys": {
      const settings = await loadDocument("payments");
      if (settings.card) {
        return redirectWithToast(PAGE, {
          type: "error",
          title: "Clés conservées",
          description:
            "Décochez d'abord « Carte bancaire » et enregistrez : les acheteurs ne pourraient plus payer.",
        });
      }
      const removed = await removeOwnerCardKeys();
      if (removed !== "removed") {
        return redirectWithToast(PAGE, {
          type: "error",
          title: "Clés conservées",
          description: underwayMessage(removed, "retirez"),
        });
      }
      return redirectWithToast(PAGE, { type: "success", title: "Clés Stripe retirées" });
    }
  }
  return documentFormAction(formData, admin, {
    key: "payments",
    schema: paymentSettingsForm,
    build: (parsed: z.output<typeof paymentSettingsForm>): Documents["payments"] => parsed,
    load: () => loadDocument("payments"),
    check: async (value) => paymentSettingsProblems(value, { cardKeys: await hasCardKeys() }),
    previewPaths: [],
    page: PAGE,
    savedTitle: "Réglages de paiement enregistrés",
  });
}
