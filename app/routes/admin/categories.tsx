import { Pencil, Plus } from "lucide-react";
import { useState } from "react";
import { Form, Link, useNavigate, useNavigation, useSearchParams } from "react-router";
import type { Route } from "./+types/categories";
import { Dialog } from "~/components/admin/dialog";
import { ADMIN_FORM_ID } from "~/components/admin/field";
import { Field, fieldMeta, Input, Textarea } from "~/components/ui/field";
import { AdminPageHeader } from "~/components/admin/admin-page-header";
import { DeleteForm } from "~/components/admin/delete-form";
import { Button } from "~/components/ui/button";
import { useServerToast } from "~/components/ui/server-toast";
import { categorySchema } from "~/lib/admin-schemas";
import { type FieldErrors, type FormAnswer, parseForm } from "~/lib/forms";
import { slugify } from "~/lib/slug";

export { action, loader } from "./categories.server";

export const meta: Route.MetaFunction = () => [{ title: "Catégories - Administration" }];

type Category = Route.ComponentProps["loaderData"]["categories"][number];

function CategoryForm({
  category,
  actionData,
}: {
  category: Category | null;
  actionData: FormAnswer | undefined;
}) {
  const creating = category === null;
  const submitted = actionData?.values;
  const [name, setName] = useState(submitted?.name ?? category?.name ?? "");
  const [slug, setSlug] = useState(submitted?.slug ?? category?.slug ?? "");
  const [slugEdited, setSlugEdited] = useState(!creating || Boolean(submitted?.slug));
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors = clientErrors ?? actionData?.errors ?? {};
  const field = (name: string) => fieldMeta(ADMIN_FORM_ID, name, errors[name]);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";

  return (
    <Form
      method="post"
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        const parsed = parseForm(new FormData(event.currentTarget), categorySchema);
        if (parsed.ok) return setClientErrors(null);
        event.preventDefault();
        setClientErrors(parsed.errors);
      }}
    >
      <input type="hidden" name="intent" value={creating ? "create" : "update"} />
      {category ? <input type="hidden" name="id" value={category.id} /> : null}
      <Field field={field("name")} label="Nom">
        {(props) => (
          <Input
            {...props}
            value={name}
            maxLength={100}
            onChange={(event) => {
              setName(event.target.value);
              if (creating && !slugEdited) setSlug(slugify(event.target.value));
            }}
          />
        )}
      </Field>
      <Field
        field={field("slug")}
        label="Slug"
        description="Lettres minuscules, chiffres et tirets."
      >
        {(props) => (
          <Input
            {...props}
            value={slug}
            maxLength={200}
            onChange={(event) => {
              setSlug(event.target.value);
              setSlugEdited(true);
            }}
          />
        )}
      </Field>
      <Field field={field("description")} label="Description (facultative)">
        {(props) => (
          <Textarea
            {...props}
            rows={3}
            defaultValue={submitted?.description ?? category?.description ?? ""}
          />
        )}
      </Field>
      <div className="flex justify-end gap-2">
        <Button asChild variant="ghost">
          <Link to="/admin/categories">Annuler</Link>
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? "Enregistrement..." : creating ? "Créer" : "Enregistrer"}
        </Button>
      </div>
    </Form>
  );
}

export default function Categories({ loaderData, actionData }: Route.ComponentProps) {
  const { categories, loadError } = loaderData;
  // A refused intent ({ error }) comes from a crafted post, never from this page's forms.
  const answer = actionData && "status" in actionData ? actionData : undefined;
  useServerToast(loadError);
  useServerToast(answer?.toast);
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const editing = searchParams.get("categorie");
  const category =
    editing && editing !== "nouvelle"
      ? (categories.find((item) => item.id === editing) ?? null)
      : null;
  const open = editing === "nouvelle" || category !== null;

  return (
    <div className="space-y-6">
      <AdminPageHeader
        title="Catégories"
        actions={
          <Button asChild>
            <Link to="?categorie=nouvelle">
              <Plus aria-hidden="true" />
              Nouvelle catégorie
            </Link>
          </Button>
        }
      />

      <section
        className="rounded-xl border border-border bg-white"
        aria-label="Liste des catégories"
      >
        {categories.length === 0 ? (
          <p className="px-5 py-8 text-muted-foreground">
            {loadError
              ? "Impossible de charger les catégories"
              : "Aucune catégorie pour le moment."}
          </p>
        ) : (
          <ul className="divide-y divide-border">
            {categories.map((item) => (
              <li
                key={item.id}
                className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center"
              >
                <div className="min-w-0 flex-1">
                  <h2 className="font-sans text-base font-semibold">{item.name}</h2>
                  <p className="text-sm text-muted-foreground">
                    /{item.slug} · {item.articleCount} article{item.articleCount > 1 ? "s" : ""}
                  </p>
                  {item.description ? <p className="mt-1 text-sm">{item.description}</p> : null}
                </div>
                <div className="flex gap-2">
                  <Button asChild variant="ghost" size="sm">
                    <Link to={`?categorie=${item.id}`}>
                      <Pencil aria-hidden="true" />
                      Modifier<span className="sr-only"> « {item.name} »</span>
                    </Link>
                  </Button>
                  <DeleteForm
                    id={item.id}
                    confirmation="Êtes-vous sûr de vouloir supprimer cette catégorie ?"
                    itemLabel={item.name}
                  />
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <Dialog
        open={open}
        onOpenChange={(next) => {
          if (!next)
            void navigate("/admin/categories", { replace: true, preventScrollReset: true });
        }}
        title={category ? "Modifier la catégorie" : "Nouvelle catégorie"}
      >
        <CategoryForm key={editing ?? "none"} category={category} actionData={answer} />
      </Dialog>
    </div>
  );
}
