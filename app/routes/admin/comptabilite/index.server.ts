import { data } from "react-router";
import type { Route } from "./+types/index";
import { accountantMailForm, periodWords } from "~/lib/accounting/accountant-mail";
import { ACCOUNTING_FILES, accountingFilePath } from "~/lib/accounting/files";
import { checkPeriod, lastMonth } from "~/lib/accounting/period";
import { FRENCH_MONTHS, parisToday } from "~/lib/dates";
import { ofName } from "~/lib/french";
import { parseForm, type FormAnswer } from "~/lib/forms";
import { formatCents } from "~/lib/prices";
import {
  accountantMailSetting,
  saveAccountantMail,
  sendAccountantFilesNow,
} from "~/server/accounting/accountant-mail.server";
import { accountingExports } from "~/server/accounting/exports.server";
import { requireAdmin } from "~/server/admin/guard.server";
import { now } from "~/server/clock.server";
import { mailConfig } from "~/server/mail/transport.server";
import { redirectWithToast } from "~/server/toast.server";

const PAGE = "/admin/comptabilite";

/** « novembre 2026 » from « 2026-11 ». */
const monthWords = (month: string) => {
  const [year, number] = month.split("-").map(Number) as [number, number];
  return `${FRENCH_MONTHS[number - 1]} ${year}`;
};

/**
 * /admin/comptabilite (decision 0182): a period (the last whole month by default), what each of the
 * accountant's files holds for it (rows and total), and their downloads; the accountant's address and
 * the monthly e-mail of the files (decision 0189).
 */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const search = new URL(request.url).searchParams;
  const fallback = lastMonth(parisToday(now()));
  const typed = {
    from: search.get("du") ?? fallback.from,
    to: search.get("au") ?? fallback.to,
  };
  const setting = await accountantMailSetting();
  const accountant = {
    email: setting.email,
    monthly: setting.monthly,
    lastMonthly: setting.lastMonthly
      ? {
          month: monthWords(setting.lastMonthly.month),
          sentAt: setting.lastMonthly.sentAt?.toISOString() ?? null,
          waiting: setting.lastMonthly.waiting,
        }
      : null,
    notSent: setting.notSent.map(({ month, from, to }) => ({
      month: monthWords(month),
      href: `${PAGE}?du=${from}&au=${to}`,
    })),
    refused: setting.refused
      ? { at: setting.refused.at.toISOString(), error: setting.refused.error }
      : null,
    mailConfigured: mailConfig() !== null,
  };
  const checked = checkPeriod(typed.from, typed.to);
  if (!checked.ok) return { typed, errors: checked.errors, files: [], accountant };
  const { period } = checked;
  const made = await accountingExports(period);
  return {
    typed,
    errors: {},
    accountant,
    files: ACCOUNTING_FILES.map((file, index) => ({
      ...file,
      href: accountingFilePath(file.file, period.from, period.to),
      rows: made[index]?.rows ?? 0,
      total: formatCents(made[index]?.totalCents ?? 0),
    })),
  };
}

/** Which of the page's forms an answer is for. */
export type AccountingAnswer = FormAnswer<{ form: "accountant-mail" | "send-now" }>;

/** The page again at the period the form came from (its hidden `du` and `au`), when it is one. */
function pageAt(formData: FormData): string {
  const checked = checkPeriod(String(formData.get("du") ?? ""), String(formData.get("au") ?? ""));
  return checked.ok ? `${PAGE}?du=${checked.period.from}&au=${checked.period.to}` : PAGE;
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "accountant-mail") {
    const parsed = parseForm(formData, accountantMailForm, { omit: ["intent", "du", "au"] });
    if (!parsed.ok) {
      return data<AccountingAnswer>(
        {
          form: "accountant-mail",
          status: "invalid",
          values: parsed.values,
          errors: parsed.errors,
          toast: {
            type: "error",
            title: "Rien n'a été enregistré",
            description: parsed.errors.email ?? "Vérifiez le formulaire.",
          },
        },
        { status: 400 },
      );
    }
    const monthly = parsed.data.envoiMensuel === "on";
    await saveAccountantMail({ email: parsed.data.email, monthly });
    return redirectWithToast(pageAt(formData), {
      type: "success",
      title: "Envoi au cabinet comptable enregistré",
      description: monthly
        ? `Les fichiers du mois précédent partiront le 1er de chaque mois à ${parsed.data.email}.`
        : "Les fichiers ne partent plus chaque mois ; vous pouvez toujours les envoyer depuis cette page.",
    });
  }
  if (intent === "send-now") {
    const values = { du: String(formData.get("du") ?? ""), au: String(formData.get("au") ?? "") };
    const refuse = (message: string) =>
      data<AccountingAnswer>(
        {
          form: "send-now",
          status: "invalid",
          values,
          message,
          toast: { type: "error", title: "Fichiers non envoyés", description: message },
        },
        { status: 400 },
      );
    const checked = checkPeriod(values.du, values.au);
    if (!checked.ok) return refuse(Object.values(checked.errors).join(" "));
    const outcome = await sendAccountantFilesNow(checked.period);
    if (outcome === "no-address") {
      return refuse(
        "Indiquez d'abord l'adresse e-mail de votre cabinet comptable (plus bas sur cette page) et enregistrez-la.",
      );
    }
    const { email } = await accountantMailSetting();
    const words = periodWords(checked.period);
    if (outcome === "monthly-queued") {
      // The monthly job claimed this month at the same instant (decision 0189, amended): one e-mail.
      return redirectWithToast(pageAt(formData), {
        type: "info",
        title: "Fichiers déjà en route vers le cabinet comptable",
        description: `L'envoi mensuel des fichiers ${ofName(words)} part déjà à ${email} : ils ne sont pas envoyés une seconde fois.`,
      });
    }
    const queued = outcome === "queued" || outcome === "claimed";
    return redirectWithToast(pageAt(formData), {
      type: queued ? "success" : "info",
      title: queued
        ? "Fichiers envoyés au cabinet comptable"
        : "Fichiers déjà envoyés il y a moins d'une heure",
      description: queued
        ? [
            mailConfig()
              ? `Les quatre fichiers (${words}) partent à l'instant à ${email}.`
              : `Les quatre fichiers (${words}) partiront à ${email} dès que l'envoi d'e-mails du site sera réglé (SMTP_URL).`,
            ...(outcome === "claimed"
              ? [`Ils comptent comme l'envoi mensuel ${ofName(words)}, qui ne repartira pas.`]
              : []),
          ].join(" ")
        : `Les fichiers de cette période sont déjà partis à ${email} : ils ne sont pas envoyés une seconde fois.`,
    });
  }
  return data<AccountingAnswer>(
    {
      form: "send-now",
      status: "invalid",
      values: {},
      message: "Action inconnue.",
      toast: { type: "error", title: "Action inconnue" },
    },
    { status: 400 },
  );
}
