import { useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { Form, Link, useBlocker, useNavigation } from "react-router";
import { useAdminBrand } from "~/components/admin/admin-brand";
import { articleSchema, LIMITS, SCHEDULING_FIELDS } from "~/lib/admin-schemas";
import { type FieldErrors, parseForm } from "~/lib/forms";
import { slugify } from "~/lib/slug";
import type { ToastMessage } from "~/lib/toast";
import { Button } from "~/components/ui/button";
import {
  ErrorList,
  ErrorSummary,
  Field,
  fieldMeta,
  FormAlert,
  Input,
  Select,
  Textarea,
  type FieldMeta,
} from "~/components/ui/field";
import { ADMIN_FORM_ID } from "../admin/field";
import { ImageField } from "../admin/image-field";
import { RichTextField } from "../admin/rich-text-field";
import { SeoFields } from "../admin/seo-fields";

export type ArticleFormValues = Partial<Record<string, string>>;

type ArticleFormProps = {
  mode: "create" | "edit";
  categories: Array<{ id: string; name: string }>;
  values: ArticleFormValues;
  errors?: FieldErrors;
  alert?: ToastMessage | null;
  /** A published article is not autosaved (its changes would go live) and has no 'Publier' button. */
  published?: boolean;
  /** « Nouvel article »: this visit, so that its autosaves keep to one draft (decision 0111). */
  draftSession?: string;
};

/** The fields' names as the error summary says them. */
const FIELD_LABELS: Record<string, string> = {
  title: "Titre",
  slug: "Slug",
  excerpt: "Extrait",
  content: "Contenu",
  author: "Auteur",
  category_id: "Catégorie",
  cover_image_url: "Image de couverture",
  cover_focal_x: "Point d'intérêt",
  cover_focal_y: "Point d'intérêt",
  seo_title: "Titre SEO",
  seo_description: "Description SEO",
  seo_image_url: "Image de partage",
  scheduled_at: "Date et heure de publication",
};

/** How long the owner pauses before the draft is saved. */
const AUTOSAVE_DELAY_MS = 3000;
const AUTOSAVE_URL = "/admin/articles/brouillon";

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="space-y-5 rounded-xl border border-border bg-white p-5 sm:p-6">
      <h2 className="text-xl font-semibold">{title}</h2>
      {children}
    </section>
  );
}

/**
 * The article form (SPEC §5): main information, images, SEO. Same schema in the browser and the action.
 * A draft saves itself a few seconds after the owner stops typing; 'Publier' saves and publishes.
 */
export function ArticleForm({
  mode,
  categories,
  values,
  errors: serverErrors,
  alert,
  published = false,
  draftSession,
}: ArticleFormProps) {
  const brand = useAdminBrand();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const formRef = useRef<HTMLFormElement>(null);
  const [title, setTitle] = useState(values.title ?? "");
  const [slug, setSlug] = useState(values.slug ?? "");
  // The search result preview shows the excerpt when there is no SEO description.
  const [excerpt, setExcerpt] = useState(values.excerpt ?? "");
  // While creating, the slug follows the title until the owner edits it by hand.
  const [slugFollowsTitle, setSlugFollowsTitle] = useState(mode === "create" && !values.slug);
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors = clientErrors ?? serverErrors ?? {};
  const field = (name: string) => fieldMeta(ADMIN_FORM_ID, name, errors[name]);
  const { setDirty, markSaving } = useUnsavedChangesGuard(
    Boolean(serverErrors) || Boolean(alert),
    navigation.state === "idle",
  );
  const autosave = useDraftAutosave({
    formRef,
    enabled: !published,
    initialId: values.id ?? "",
    followUrl: mode === "create",
    idle: navigation.state === "idle",
    onSaved: () => setDirty(false),
    // The address she had was an unfinished draft's: the field shows the one saved.
    onSlugMoved: (saved) => flushSync(() => setSlug(saved)),
  });
  const changed = () => {
    setDirty(true);
    autosave.schedule();
  };

  // Errors from the browser's check or the server's: the owner lands on the first field to correct.
  useEffect(() => {
    const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.focus();
  }, [clientErrors, serverErrors]);

  return (
    <Form
      ref={formRef}
      method="post"
      noValidate
      className="space-y-6"
      onInput={changed}
      onSubmit={(event) => {
        const form = event.currentTarget;
        const submitter = (event.nativeEvent as SubmitEvent).submitter;
        // An autosave still creating the draft: submit once it is known, so no second article is created.
        if (autosave.pending()) {
          event.preventDefault();
          void autosave.settled().then(() => form.requestSubmit(submitter));
          return;
        }
        const parsed = parseForm(new FormData(form, submitter), articleSchema);
        if (parsed.ok) {
          setClientErrors(null);
          autosave.cancel();
          markSaving();
          return;
        }
        // Field messages and a summary say what to correct; a toast would only cover the form.
        event.preventDefault();
        setClientErrors(parsed.errors);
      }}
    >
      <input type="hidden" name="id" value={autosave.id} />
      {draftSession ? <input type="hidden" name="draft_session" value={draftSession} /> : null}
      <ErrorSummary
        id="erreurs-formulaire"
        items={Object.entries(FIELD_LABELS).map(([name, label]) => ({ field: field(name), label }))}
        title={(count) =>
          `L'article n'est pas enregistré : ${count} ${count === 1 ? "champ" : "champs"} à corriger.`
        }
      />
      <FormAlert message={alert} />
      <Section title="Informations principales">
        <Field field={field("title")} label="Titre">
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
          field={field("slug")}
          label="Slug (adresse de l'article)"
          description={`Lettres minuscules, chiffres et tirets. Adresse : /blog/${slug || "…"}`}
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
          field={field("excerpt")}
          label="Extrait"
          description={`${LIMITS.excerpt} caractères au plus.`}
        >
          {(props) => (
            <Textarea
              {...props}
              rows={3}
              value={excerpt}
              onChange={(event) => setExcerpt(event.target.value)}
            />
          )}
        </Field>
        <ContentField field={field("content")} value={values.content ?? ""} onChange={changed} />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field field={field("author")} label="Auteur">
            {(props) => <Input {...props} defaultValue={values.author ?? brand} />}
          </Field>
          <Field field={field("category_id")} label="Catégorie">
            {(props) => (
              <Select {...props} defaultValue={values.category_id ?? ""}>
                <option value="">Aucune catégorie</option>
                {categories.map((category) => (
                  <option key={category.id} value={category.id}>
                    {category.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        </div>
      </Section>

      <Section title="Images">
        <ImageField
          name="cover_image_url"
          label="Image de couverture"
          defaultValue={values.cover_image_url ?? ""}
          error={errors.cover_image_url ?? errors.cover_focal_x ?? errors.cover_focal_y}
          onChange={changed}
          focalPoint={{
            names: { x: "cover_focal_x", y: "cover_focal_y" },
            defaultValue: {
              x: Number(values.cover_focal_x ?? 50) || 0,
              y: Number(values.cover_focal_y ?? 50) || 0,
            },
          }}
        />
      </Section>

      <Section title="SEO">
        <SeoFields
          titleField={field("seo_title")}
          descriptionField={field("seo_description")}
          values={values}
          articleTitle={title.trim()}
          excerpt={excerpt.trim()}
          slug={slug}
        />
        <ImageField
          name="seo_image_url"
          label="Image de partage (facultative)"
          defaultValue={values.seo_image_url ?? ""}
          error={errors.seo_image_url}
          onChange={changed}
        />
      </Section>

      {published ? null : (
        <PublicationSection scheduledAt={field("scheduled_at")} values={values} />
      )}

      <div className="flex flex-wrap items-center justify-end gap-3">
        <p role="status" className="mr-auto text-sm text-muted-foreground">
          {autosave.message}
        </p>
        <Button asChild variant="ghost">
          <Link to="/admin/dashboard">Annuler</Link>
        </Button>
        <Button
          type="submit"
          name="intent"
          value="save"
          variant={published ? "default" : "outline"}
          disabled={busy}
        >
          {busy ? "Enregistrement..." : mode === "create" ? "Créer l'article" : "Enregistrer"}
        </Button>
        {published ? null : (
          <Button type="submit" name="intent" value="publish" disabled={busy}>
            Publier
          </Button>
        )}
      </div>
    </Form>
  );
}

/**
 * « Programmer la publication »: a draft's date and time in Paris (the job queue publishes it then; empty,
 * it stays a draft), and whether the subscribers receive it when it is published, now or then. Saved by
 * the form's buttons only, never by the autosave.
 */
function PublicationSection({
  scheduledAt,
  values,
}: {
  scheduledAt: FieldMeta;
  values: ArticleFormValues;
}) {
  const newsletterId = `${ADMIN_FORM_ID}-newsletter_on_publish`;
  return (
    <Section title="Programmer la publication">
      <Field
        field={scheduledAt}
        label="Date et heure de publication (heure de Paris)"
        description="Facultatif. L'article reste un brouillon jusqu'à cette heure, puis paraît sur le blog, dans le flux RSS et le plan du site. Videz le champ pour déprogrammer ; « Publier » publie tout de suite."
      >
        {(props) => (
          <Input
            {...props}
            type="datetime-local"
            className="sm:max-w-xs"
            defaultValue={values.scheduled_at ?? ""}
          />
        )}
      </Field>
      <div>
        <div className="flex items-center gap-3">
          <input
            id={newsletterId}
            type="checkbox"
            name="newsletter_on_publish"
            defaultChecked={values.newsletter_on_publish === "on"}
            aria-describedby={`${newsletterId}-aide`}
            className="size-5 accent-stone-800"
          />
          <label htmlFor={newsletterId} className="text-sm font-semibold">
            Envoyer l'article aux abonnés à la publication
          </label>
        </div>
        <p id={`${newsletterId}-aide`} className="mt-1 text-sm text-muted-foreground">
          Un e-mail à chaque abonné confirmé, une seule fois : à l'heure programmée, ou tout de
          suite avec « Publier ».
        </p>
      </div>
    </Section>
  );
}

/**
 * The rich text editor as a field: its label is not a `<label>` (the editor is no form control), but its
 * ids and error message follow the shared fields'.
 */
function ContentField({
  field,
  value,
  onChange,
}: {
  field: FieldMeta;
  value: string;
  onChange: () => void;
}) {
  return (
    <div>
      <p id={`${field.id}-libelle`} className="mb-1.5 block text-sm font-semibold">
        Contenu
      </p>
      <RichTextField
        name={field.name}
        id={field.id}
        defaultValue={value}
        invalid={Boolean(field.errors)}
        describedBy={field.errors ? field.errorId : undefined}
        onChange={onChange}
      />
      <ErrorList id={field.errorId} errors={field.errors} />
    </div>
  );
}

const savedTime = new Intl.DateTimeFormat("fr-FR", {
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Europe/Paris",
});

/** The scheduling fields as one string: the autosave does not save them. */
function schedulingKey(form: HTMLFormElement): string {
  const body = new FormData(form);
  return JSON.stringify(SCHEDULING_FIELDS.map((name) => String(body.get(name) ?? "")));
}

/**
 * The fields the autosave saves, and as one string, to tell whether anything changed since the last
 * save (the scheduling fields are left to the form's buttons).
 */
function snapshot(form: HTMLFormElement): { body: FormData; key: string; title: string } {
  const body = new FormData(form);
  body.delete("intent");
  for (const name of SCHEDULING_FIELDS) body.delete(name);
  return { body, key: keyOf(body), title: String(body.get("title") ?? "").trim() };
}

function keyOf(body: FormData): string {
  return JSON.stringify(
    [...body.entries()]
      .filter(([name]) => name !== "id")
      .map(([name, value]) => [name, String(value)]),
  );
}

/**
 * Saves the draft to the server AUTOSAVE_DELAY_MS after the last change, only when something changed,
 * and once more when the page is hidden or closed (fetch `keepalive` outlives the page). The first save
 * of a new article creates it: its id goes into the form (the buttons then update that draft) and the
 * address becomes the draft's edit page. Never publishes; the server validates what it stores.
 */
function useDraftAutosave({
  formRef,
  enabled,
  initialId,
  followUrl,
  idle,
  onSaved,
  onSlugMoved,
}: {
  formRef: React.RefObject<HTMLFormElement | null>;
  enabled: boolean;
  initialId: string;
  followUrl: boolean;
  idle: boolean;
  onSaved: () => void;
  onSlugMoved: (slug: string) => void;
}) {
  const [id, setId] = useState(initialId);
  const [message, setMessage] = useState("");
  const idRef = useRef(initialId);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<Promise<void> | null>(null);
  const lastSaved = useRef<string | null>(null);
  const loadedScheduling = useRef<string | null>(null);
  const idleRef = useRef(idle);
  const onSavedRef = useRef(onSaved);
  const onSlugMovedRef = useRef(onSlugMoved);

  // What the page was loaded with counts as saved.
  useEffect(() => {
    if (!formRef.current) return;
    lastSaved.current = snapshot(formRef.current).key;
    loadedScheduling.current = schedulingKey(formRef.current);
  }, [formRef]);

  const save = (keepalive: boolean): Promise<void> | null => {
    const form = formRef.current;
    if (!enabled || !form || inFlight.current || !idleRef.current) return inFlight.current;
    const { body, key: sentKey, title } = snapshot(form);
    if (sentKey === lastSaved.current) return null;
    if (!title) {
      setMessage("Brouillon non enregistré : saisissez un titre.");
      return null;
    }
    body.set("id", idRef.current);
    // keepalive requests are limited to 64 KB in all: a longer article relies on the leave warning.
    const size = [...body.values()].reduce((total, value) => total + String(value).length * 3, 0);
    setMessage("Enregistrement du brouillon…");
    const request = fetch(AUTOSAVE_URL, {
      method: "POST",
      body,
      keepalive: keepalive && size < 60_000,
      headers: { Accept: "application/json" },
    })
      .then(async (response) => {
        const answer = (await response.json()) as {
          id?: string;
          savedAt?: string;
          slug?: string;
          reason?: string;
          merged?: boolean;
        };
        if (!response.ok || !answer.id || !answer.savedAt) {
          setMessage(`Brouillon non enregistré : ${answer.reason ?? "erreur du serveur."}`);
          return;
        }
        if (answer.merged) {
          // Saved into her unfinished draft of this title (decision 0130): that draft opens, with
          // what it held and what was just typed, instead of a twin (saved: no leave warning).
          lastSaved.current = sentKey;
          onSavedRef.current();
          setMessage("Ce titre est celui d'un brouillon non terminé : il s'ouvre, complété.");
          window.location.replace(`/admin/articles/${answer.id}/modifier`);
          return;
        }
        const sentSlug = String(body.get("slug") ?? "");
        const moved = answer.slug && answer.slug !== sentSlug ? answer.slug : null;
        let key = sentKey;
        if (moved) {
          body.set("slug", moved);
          key = keyOf(body);
          onSlugMovedRef.current(moved);
        }
        lastSaved.current = key;
        if (idRef.current !== answer.id) {
          idRef.current = answer.id;
          setId(answer.id);
          // A reload now opens this draft instead of a blank form (React Router keeps its own state).
          if (followUrl) {
            window.history.replaceState(
              window.history.state,
              "",
              `/admin/articles/${answer.id}/modifier`,
            );
          }
        }
        const time = savedTime.format(new Date(answer.savedAt));
        setMessage(
          moved
            ? `Enregistré à ${time}. Adresse : /blog/${moved} (/blog/${sentSlug} est celle d'un autre brouillon).`
            : `Enregistré à ${time}`,
        );
        // Saved as shown, unless a scheduling change still waits for the form's buttons.
        const form = formRef.current;
        if (
          form &&
          snapshot(form).key === key &&
          schedulingKey(form) === loadedScheduling.current
        ) {
          onSavedRef.current();
        }
      })
      .catch(() => setMessage("Brouillon non enregistré : la connexion a été interrompue."))
      .finally(() => {
        inFlight.current = null;
      });
    inFlight.current = request;
    return request;
  };
  const saveRef = useRef(save);
  // The timers and page events call the latest render's values.
  useEffect(() => {
    idleRef.current = idle;
    onSavedRef.current = onSaved;
    onSlugMovedRef.current = onSlugMoved;
    saveRef.current = save;
  });

  useEffect(() => {
    if (!enabled) return;
    const leave = () => {
      clearTimeout(timer.current);
      void saveRef.current(true);
    };
    const hidden = () => {
      if (document.visibilityState === "hidden") leave();
    };
    document.addEventListener("visibilitychange", hidden);
    window.addEventListener("pagehide", leave);
    return () => {
      clearTimeout(timer.current);
      document.removeEventListener("visibilitychange", hidden);
      window.removeEventListener("pagehide", leave);
    };
  }, [enabled]);

  return {
    id,
    message,
    schedule() {
      if (!enabled) return;
      clearTimeout(timer.current);
      timer.current = setTimeout(() => void saveRef.current(false), AUTOSAVE_DELAY_MS);
    },
    cancel() {
      clearTimeout(timer.current);
    },
    pending: () => inFlight.current !== null,
    settled: () => inFlight.current ?? Promise.resolve(),
  };
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
