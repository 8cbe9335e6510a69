import Image from "@tiptap/extension-image";
import { EditorContent, useEditor, useEditorState, type Editor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import {
  Bold,
  Heading2,
  Heading3,
  ImagePlus,
  Italic,
  Link as LinkIcon,
  List,
  ListOrdered,
  Quote,
  TextCursorInput,
  Redo2,
  Undo2,
} from "lucide-react";
import { TextSelection } from "@tiptap/pm/state";
import { useRef, useState, type ReactNode } from "react";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/utils";
import { Dialog } from "./dialog";
import { LinkDialog } from "./link-dialog";
import { Input } from "~/components/ui/field";
import { uploadStatusText, useImageUpload } from "./upload";

export type EditorProps = {
  /** Form field carrying the HTML (`content`). */
  name: string;
  id: string;
  defaultValue: string;
  invalid?: boolean;
  describedBy?: string;
  /** Called on every change of the content (the form autosaves). */
  onChange?: () => void;
};

const contentStyles =
  "min-h-80 px-3 py-2 outline-none [&_a]:text-gold-dark [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-stone-300 [&_blockquote]:pl-4 [&_blockquote]:italic [&_h2]:mt-4 [&_h2]:font-serif [&_h2]:text-2xl [&_h2]:font-bold [&_h3]:mt-3 [&_h3]:font-serif [&_h3]:text-xl [&_h3]:font-semibold [&_img]:my-3 [&_img]:max-h-96 [&_img]:rounded-md [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-2 [&_ul]:list-disc [&_ul]:pl-6";

/**
 * The article body: TipTap (headings, bold, italic, lists, links, quotes, images). Its HTML travels in a
 * hidden field; until the editor exists, `fallback` (rich-text-field's plain text area) stands in. The
 * server sanitises whatever arrives. Loaded in the browser only, by rich-text-field (decision record 0092).
 */
export function RichTextEditor({
  name,
  id,
  defaultValue,
  invalid,
  describedBy,
  onChange,
  typedText,
  fallback,
}: EditorProps & {
  /** What the owner has typed in the plain text area standing in for the editor, if anything. */
  typedText: () => string | undefined;
  fallback: ReactNode;
}) {
  const start = typedText() ?? defaultValue;
  const [html, setHtml] = useState(start);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        code: false,
        codeBlock: false,
        // No target or rel written by the editor: the sanitizer gives them to links to other sites only.
        link: {
          openOnClick: false,
          autolink: true,
          protocols: ["http", "https", "mailto"],
          HTMLAttributes: { target: null, rel: null },
        },
      }),
      Image.configure({ inline: false }),
    ],
    content: start,
    immediatelyRender: false,
    // Text typed in the stand-in text area until this very moment is the editor's first content.
    onCreate: ({ editor: created }) => {
      const typed = typedText();
      if (typed === undefined || typed === start) return;
      created.commands.setContent(typed);
      setHtml(created.isEmpty ? "" : created.getHTML());
      onChange?.();
    },
    editorProps: {
      attributes: {
        id,
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": `${id}-libelle`,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        ...(invalid ? { "aria-invalid": "true" } : {}),
        class: contentStyles,
      },
    },
    onUpdate: ({ editor: current }) => {
      setHtml(current.isEmpty ? "" : current.getHTML());
      onChange?.();
    },
  });

  if (!editor) return fallback;
  return (
    <div
      className={cn(
        "rounded-md border bg-white shadow-sm",
        invalid ? "border-destructive" : "border-stone-300",
      )}
    >
      <input type="hidden" name={name} value={html} />
      <Toolbar editor={editor} />
      <EditorContent editor={editor} />
    </div>
  );
}

function ToolbarButton({
  label,
  active,
  onClick,
  disabled,
  children,
}: {
  label: string;
  active?: boolean;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      title={label}
      aria-label={label}
      aria-pressed={active === undefined ? undefined : active}
      disabled={disabled}
      onClick={onClick}
      className={cn(
        "inline-flex size-9 items-center justify-center rounded-md hover:bg-muted disabled:opacity-40 [&_svg]:size-4",
        active && "bg-stone-200",
      )}
    >
      {children}
    </button>
  );
}

/** The alternative text dialog: asked when an image is inserted, and to edit the selected image's. */
type AltRequest = { mode: "insert"; src: string } | { mode: "edit"; alt: string };

function Toolbar({ editor }: { editor: Editor }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const { status, busy, upload } = useImageUpload();
  const [altRequest, setAltRequest] = useState<AltRequest | null>(null);
  const [linkRequest, setLinkRequest] = useState<{ href: string; editing: boolean } | null>(null);
  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      h2: current.isActive("heading", { level: 2 }),
      h3: current.isActive("heading", { level: 3 }),
      bold: current.isActive("bold"),
      italic: current.isActive("italic"),
      bulletList: current.isActive("bulletList"),
      orderedList: current.isActive("orderedList"),
      blockquote: current.isActive("blockquote"),
      link: current.isActive("link"),
      image: current.isActive("image"),
      canUndo: current.can().undo(),
      canRedo: current.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();

  function editLink() {
    const previous = (editor.getAttributes("link").href as string | undefined) ?? "";
    setLinkRequest({ href: previous, editing: editor.isActive("link") });
  }

  function removeLink() {
    setLinkRequest(null);
    chain().extendMarkRange("link").unsetLink().run();
  }

  function applyLink(href: string) {
    setLinkRequest(null);
    const linked = chain();
    // Nothing selected outside a link: the address itself becomes the linked words.
    if (editor.state.selection.empty && !editor.isActive("link")) {
      linked.insertContent({
        type: "text",
        text: href,
        marks: [{ type: "link", attrs: { href } }],
      });
    } else {
      linked.extendMarkRange("link").setLink({ href });
    }
    // The caret goes after the link and typing there is plain text: the next key neither replaces
    // the linked words nor lengthens the link.
    linked
      .command(({ tr }) => {
        tr.setSelection(TextSelection.create(tr.doc, tr.selection.to));
        return true;
      })
      .unsetMark("link")
      .run();
  }

  async function chooseImage(file: File) {
    const src = await upload(file);
    if (src) setAltRequest({ mode: "insert", src });
  }

  function applyAlt(alt: string) {
    if (altRequest?.mode === "insert") chain().setImage({ src: altRequest.src, alt }).run();
    else chain().updateAttributes("image", { alt }).run();
    setAltRequest(null);
  }

  return (
    <div
      role="toolbar"
      aria-label="Mise en forme"
      className="flex flex-wrap items-center gap-0.5 border-b border-border p-1"
    >
      <ToolbarButton
        label="Titre de section"
        active={state.h2}
        onClick={() => chain().toggleHeading({ level: 2 }).run()}
      >
        <Heading2 aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton
        label="Sous-titre"
        active={state.h3}
        onClick={() => chain().toggleHeading({ level: 3 }).run()}
      >
        <Heading3 aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Gras" active={state.bold} onClick={() => chain().toggleBold().run()}>
        <Bold aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton
        label="Italique"
        active={state.italic}
        onClick={() => chain().toggleItalic().run()}
      >
        <Italic aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton
        label="Liste à puces"
        active={state.bulletList}
        onClick={() => chain().toggleBulletList().run()}
      >
        <List aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton
        label="Liste numérotée"
        active={state.orderedList}
        onClick={() => chain().toggleOrderedList().run()}
      >
        <ListOrdered aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton
        label="Citation"
        active={state.blockquote}
        onClick={() => chain().toggleBlockquote().run()}
      >
        <Quote aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton label="Lien" active={state.link} onClick={editLink}>
        <LinkIcon aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton
        label="Insérer une image"
        disabled={busy}
        onClick={() => fileInput.current?.click()}
      >
        <ImagePlus aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton
        label="Texte alternatif de l'image"
        disabled={!state.image}
        onClick={() =>
          setAltRequest({
            mode: "edit",
            alt: (editor.getAttributes("image").alt as string | undefined) ?? "",
          })
        }
      >
        <TextCursorInput aria-hidden="true" />
      </ToolbarButton>
      <input
        ref={fileInput}
        type="file"
        accept="image/*"
        className="hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void chooseImage(file);
        }}
      />
      <span className="mx-1 h-6 w-px bg-border" aria-hidden="true" />
      <ToolbarButton
        label="Annuler la modification"
        disabled={!state.canUndo}
        onClick={() => chain().undo().run()}
      >
        <Undo2 aria-hidden="true" />
      </ToolbarButton>
      <ToolbarButton
        label="Rétablir"
        disabled={!state.canRedo}
        onClick={() => chain().redo().run()}
      >
        <Redo2 aria-hidden="true" />
      </ToolbarButton>
      <span role="status" className="ml-2 text-xs text-muted-foreground">
        {status ? uploadStatusText(status) : ""}
      </span>
      {linkRequest ? (
        <LinkDialog
          initial={linkRequest.href}
          editing={linkRequest.editing}
          onCancel={() => {
            setLinkRequest(null);
            editor.commands.focus();
          }}
          onApply={applyLink}
          onRemove={removeLink}
        />
      ) : null}
      {altRequest ? (
        <AltTextDialog
          key={altRequest.mode === "insert" ? altRequest.src : "edit"}
          request={altRequest}
          onCancel={() => setAltRequest(null)}
          onConfirm={applyAlt}
        />
      ) : null}
    </div>
  );
}

function AltTextDialog({
  request,
  onCancel,
  onConfirm,
}: {
  request: AltRequest;
  onCancel: () => void;
  onConfirm: (alt: string) => void;
}) {
  const [alt, setAlt] = useState(request.mode === "edit" ? request.alt : "");
  const [error, setError] = useState<string | null>(null);
  const confirm = () => {
    if (alt.trim() === "") setError("Le texte alternatif est requis");
    else onConfirm(alt.trim());
  };
  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
      title="Texte alternatif de l'image"
      description="Décrivez ce que montre l'image pour les personnes qui ne la voient pas (lecteurs d'écran, image non chargée)."
    >
      {/* Not a <form>: the dialog is rendered inside the article form's React tree. */}
      <div className="space-y-4">
        <div className="space-y-1.5">
          <label htmlFor="texte-alternatif" className="block text-sm font-medium">
            Texte alternatif
          </label>
          <Input
            id="texte-alternatif"
            value={alt}
            maxLength={300}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "texte-alternatif-erreur" : undefined}
            onChange={(event) => {
              setAlt(event.target.value);
              setError(null);
            }}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                confirm();
              }
            }}
          />
          {error ? (
            <p id="texte-alternatif-erreur" className="text-sm text-destructive">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex justify-end gap-3">
          <Button type="button" variant="ghost" onClick={onCancel}>
            Annuler
          </Button>
          <Button type="button" onClick={confirm}>
            {request.mode === "insert" ? "Insérer l'image" : "Enregistrer le texte"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
