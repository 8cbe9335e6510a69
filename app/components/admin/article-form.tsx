import { useEffect, useRef, useState } from "react";
import { Form, Link, useBlocker, useNavigation } from "react-router";
import { toast } from "~/components/ui/toaster";
import { site } from "~/content/site";
import { articleSchema, LIMITS } from "~/lib/admin-schemas";
import { type FieldErrors, fieldErrors } from "~/lib/forms";
import { slugify } from "~/lib/slug";
import type { ToastMessage } from "~/lib/toast";
import { Button } from "~/components/ui/button";
import { Field, Input, inputClass, Textarea } from "./field";
import { FormAlert } from "./form-alert";
import { ImageField } from "./image-field";
import { RichTextEditor } from "./rich-text-editor";

export type ArticleFormValues = Partial<Record<string, string>>;

type ArticleFormProps = {
  mode: "create" | "edit";
  categories: Array<{ id: string; name: string }>;
  values: ArticleFormValues;
  errors?: FieldErrors;
  alert?: ToastMessage | null;
};

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-5 rounded-xl border border-border bg-white p-5 sm:p-6">
      <h2 className="text-xl font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/** The article form (SPEC §5): main information, images, SEO. Same schema in the browser and the action. */
export function ArticleForm({
  mode,
  categories,
  values,
  errors: serverErrors,
  alert,
}: ArticleFormProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const [title, setTitle] = useState(values.title ?? "");
  const [slug, setSlug] = useState(values.slug ?? "");
  // While creating, the slug follows the title until the owner edits it by hand.
  const [slugFollowsTitle, setSlugFollowsTitle] = useState(mode === "create" && !values.slug);
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors = clientErrors ?? serverErrors ?? {};
  const { setDirty, markSaving } = useUnsavedChangesGuard(
    Boolean(serverErrors) || Boolean(alert),
    navigation.state === "idle",
  );

  return (
    <Form
      method="post"
      noValidate
      className="space-y-6"
      onInput={() => setDirty(true)}
      onSubmit={(event) => {
        const form = event.currentTarget;
        const parsed = articleSchema.safeParse(Object.fromEntries(new FormData(form)));
        if (parsed.success) {
          setClientErrors(null);
          markSaving();
          return;
        }
        event.preventDefault();
        const found = fieldErrors(parsed.error);
        setClientErrors(found);
        toast.error("Erreur de validation", { description: parsed.error.issues[0]?.message });
        const first = Object.keys(found)[0];
        if (first) form.querySelector<HTMLElement>(`#champ-${first}`)?.focus();
      }}
    >
      <FormAlert message={alert} />
      <Section title="Informations principales">
        <Field name="title" label="Titre" error={errors.title}>
          {(props) => (
            <Input
              {...props}
              value={title}
              onChange={(event) => {
                setTitle(event.target.value);
                if (slugFollowsTitle) setSlug(slugify(event.target.value));
              }}
            />
          )}
        </Field>
        <Field
          name="slug"
          label="Slug (adresse de l'article)"
          error={errors.slug}
          hint={`Lettres minuscules, chiffres et tirets. Adresse : /blog/${slug || "…"}`}
        >
          {(props) => (
            <Input
              {...props}
              value={slug}
              onChange={(event) => {
                setSlug(event.target.value);
                setSlugFollowsTitle(false);
              }}
            />
          )}
        </Field>
        <Field
          name="excerpt"
          label="Extrait"
          error={errors.excerpt}
          hint={`${LIMITS.excerpt} caractères au plus.`}
        >
          {(props) => <Textarea {...props} rows={3} defaultValue={values.excerpt ?? ""} />}
        </Field>
        <div className="space-y-1.5">
          <p id="champ-content-libelle" className="text-sm font-medium">
            Contenu
          </p>
          <RichTextEditor
            name="content"
            id="champ-content"
            defaultValue={values.content ?? ""}
            invalid={Boolean(errors.content)}
            describedBy={errors.content ? "champ-content-erreur" : undefined}
          />
          {errors.content ? (
            <p id="champ-content-erreur" className="text-sm text-destructive">
              {errors.content}
            </p>
          ) : null}
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field name="author" label="Auteur" error={errors.author}>
            {(props) => <Input {...props} defaultValue={values.author ?? site.brand} />}
          </Field>
          <Field name="category_id" label="Catégorie" error={errors.category_id}>
            {(props) => (
              <select {...props} defaultValue={values.category_id ?? ""} className={inputClass}>
                <option value="">Aucune catégorie</option>
                {categories.map((category) => (
                  <option key={category.id} value={category.id}>
                    {category.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      </Section>

      <Section title="Images">
        <ImageField
          name="cover_image_url"
          label="Image de couverture"
          defaultValue={values.cover_image_url ?? ""}
          error={errors.cover_image_url}
        />
      </Section>

      <Section title="SEO">
        <Field
          name="seo_title"
          label="Titre SEO (facultatif)"
          error={errors.seo_title}
          hint={`${LIMITS.seoTitle} caractères au plus. À défaut, le titre de l'article.`}
        >
          {(props) => (
            <Input {...props} maxLength={LIMITS.seoTitle} defaultValue={values.seo_title ?? ""} />
          )}
        </Field>
        <Field
          name="seo_description"
          label="Description SEO (facultative)"
          error={errors.seo_description}
          hint={`${LIMITS.seoDescription} caractères au plus. À défaut, l'extrait.`}
        >
          {(props) => (
            <Textarea
              {...props}
              rows={2}
              maxLength={LIMITS.seoDescription}
              defaultValue={values.seo_description ?? ""}
            />
          )}
        </Field>
        <ImageField
          name="seo_image_url"
          label="Image de partage (facultative)"
          defaultValue={values.seo_image_url ?? ""}
          error={errors.seo_image_url}
        />
      </Section>

      <div className="flex flex-wrap justify-end gap-3">
        <Button asChild variant="ghost">
          <Link to="/admin/dashboard">Annuler</Link>
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? "Enregistrement..." : mode === "create" ? "Créer l'article" : "Enregistrer"}
        </Button>
      </div>
    </Form>
  );
}

const LEAVE_WARNING =
  "Les modifications de l'article ne sont pas enregistrées. Quitter quand même ?";

/**
 * Nothing typed is lost by accident: leaving the form (link, back button, closing the tab) with unsaved
 * changes asks first. Saving is not blocked.
 */
function useUnsavedChangesGuard(initiallyDirty: boolean, idle: boolean) {
  const [dirty, setDirty] = useState(initiallyDirty);
  const saving = useRef(false);
  useEffect(() => {
    // Back on the form after the server refused it: leaving must ask again.
    if (idle) saving.current = false;
  }, [idle]);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !saving.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(LEAVE_WARNING)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      if (!saving.current) event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);
  const markSaving = () => {
    saving.current = true;
  };
  return { setDirty, markSaving };
}
