import type { Route } from "./+types/site";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { documentFormState } from "~/components/admin/document-answer";
import {
  DocumentForm,
  DocumentTableRows,
  SelectField,
  TextField,
} from "~/components/admin/document-form";
import { RevisionHistory } from "~/components/admin/revision-history";
import { IDENTITY_FIELDS, IDENTITY_LINK_FIELDS } from "~/lib/identity-form";

export { action, loader } from "./site.server";

const VAT_REGIME_OPTIONS = [
  { value: "franchise", label: "Non applicable (franchise en base, art. 293 B du CGI)" },
  { value: "assujetti", label: "Le studio facture la TVA" },
];

export const meta: Route.MetaFunction = () => [{ title: "Site - Administration" }];

function Section({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className="space-y-4 rounded-xl border border-border bg-white p-6"
    >
      <h2 id={id} className="font-sans text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function AdminSite({ loaderData, actionData }: Route.ComponentProps) {
  const identity = documentFormState(
    "identity",
    loaderData.identity.values,
    loaderData.identity.history.revisions[0]?.id ?? "seed",
    actionData,
  );
  const legal = documentFormState(
    "legal",
    loaderData.legal.values,
    loaderData.legal.history.revisions[0]?.id ?? "seed",
    actionData,
  );
  return (
    <div className="space-y-8">
      <AdminPageHeader
        title="Site"
        summary="L'identité du studio (nom, contacts, réseaux) et les informations des mentions légales."
      />

      <Section id="identite" title="Identité du site">
        <DocumentForm
          formId="identite"
          document="identity"
          title="Identité du site"
          {...identity}
          previews={[{ path: "/", label: "Prévisualiser l'accueil" }]}
        >
          <DocumentTableRows table={IDENTITY_FIELDS} />
          <fieldset className="space-y-4 rounded-lg border border-border p-4">
            <legend className="px-1 font-semibold">Réseaux sociaux et sites (facultatifs)</legend>
            <p className="text-sm text-muted-foreground">
              Adresses complètes, commençant par https://. Laissez vide ce que vous n'utilisez pas.
            </p>
            <DocumentTableRows table={IDENTITY_LINK_FIELDS} />
          </fieldset>
          <p className="text-sm text-muted-foreground">
            L'image de partage sur les réseaux sociaux se change dans Photos.
          </p>
        </DocumentForm>
        <RevisionHistory
          history={loaderData.identity.history}
          title="Historique de l'identité du site"
        />
      </Section>

      <Section id="mentions-legales" title="Mentions légales">
        <DocumentForm
          formId="mentions"
          document="legal"
          title="Mentions légales"
          {...legal}
          previews={[{ path: "/mentions-legales", label: "Prévisualiser les mentions légales" }]}
        >
          <fieldset className="space-y-4 rounded-lg border border-border p-4">
            <legend className="px-1 font-semibold">Éditeur du site</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField name="companyName" label="Raison sociale" required maxLength={200} />
              <TextField
                name="publicationDirector"
                label="Directeur ou directrice de la publication"
                required
                maxLength={200}
              />
            </div>
            <TextField
              name="legalForm"
              label="Forme juridique et capital"
              required
              maxLength={300}
              hint="Par exemple « SARL au capital de 1 000 € »."
            />
            <TextField name="address" label="Adresse du siège social" required maxLength={300} />
            <div className="grid gap-4 sm:grid-cols-3">
              <TextField
                name="rcs"
                label="Immatriculation (RCS ou RM)"
                required
                maxLength={100}
                hint="Par exemple « RCS Brive 123 456 789 » ou « RM 123 456 789 (Corrèze) »."
              />
              <TextField
                name="siret"
                label="SIRET"
                required
                maxLength={30}
                hint="14 chiffres ; les 9 premiers sont le SIREN."
              />
              <TextField
                name="vatNumber"
                label="N° de TVA (facultatif)"
                maxLength={30}
                hint="Obligatoire si le studio facture la TVA : par exemple FR40 123456789."
              />
              <TextField name="phone" label="Téléphone" type="tel" required maxLength={30} />
              <TextField name="email" label="E-mail" type="email" required maxLength={255} />
            </div>
          </fieldset>
          <fieldset id="facturation" className="space-y-4 rounded-lg border border-border p-4">
            <legend className="px-1 font-semibold">Facturation et médiation</legend>
            <p className="text-sm text-muted-foreground">
              Imprimés sur chaque facture et dans les conditions de vente. Tant qu'ils manquent, le
              tableau de bord le rappelle et aucune facture n'est émise.
            </p>
            <SelectField
              name="vatRegime"
              label="TVA"
              required
              options={VAT_REGIME_OPTIONS}
              hint="En franchise, chaque facture porte « TVA non applicable, art. 293 B du CGI »."
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                name="mediator.name"
                label="Médiateur de la consommation"
                maxLength={200}
                hint="Celui auquel le studio adhère : la loi impose d'en proposer un à chaque client."
              />
              <TextField
                name="mediator.website"
                label="Site du médiateur"
                type="url"
                hint="Adresse complète, commençant par https://."
              />
            </div>
          </fieldset>
          <fieldset className="space-y-4 rounded-lg border border-border p-4">
            <legend className="px-1 font-semibold">Hébergeur du site</legend>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField name="host.name" label="Nom de l'hébergeur" required maxLength={200} />
              <TextField
                name="host.phone"
                label="Téléphone de l'hébergeur"
                type="tel"
                required
                maxLength={30}
              />
            </div>
            <TextField
              name="host.address"
              label="Adresse de l'hébergeur"
              required
              maxLength={300}
            />
            <TextField name="host.website" label="Site de l'hébergeur (facultatif)" type="url" />
          </fieldset>
        </DocumentForm>
        <RevisionHistory
          history={loaderData.legal.history}
          title="Historique des mentions légales"
        />
      </Section>
    </div>
  );
}
