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
  Redo2,
  Undo2,
} from "lucide-react";
import { useRef, useState, type ReactNode } from "react";
import { toast } from "~/components/ui/toaster";
import { cn } from "~/lib/utils";
import { inputClass } from "./field";
import { UploadError, uploadImage } from "./upload";

type EditorProps = {
  /** Form field carrying the HTML (`content`). */
  name: string;
  id: string;
  defaultValue: string;
  invalid?: boolean;
  describedBy?: string;
};

const contentStyles =
  "min-h-80 px-3 py-2 outline-none [&_a]:text-gold-dark [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-stone-300 [&_blockquote]:pl-4 [&_blockquote]:italic [&_h2]:mt-4 [&_h2]:font-serif [&_h2]:text-2xl [&_h2]:font-bold [&_h3]:mt-3 [&_h3]:font-serif [&_h3]:text-xl [&_h3]:font-semibold [&_img]:my-3 [&_img]:max-h-96 [&_img]:rounded-md [&_ol]:list-decimal [&_ol]:pl-6 [&_p]:my-2 [&_ul]:list-disc [&_ul]:pl-6";

/**
 * The article body: TipTap (headings, bold, italic, lists, links, quotes, images). Its HTML travels in a
 * hidden field; before the script runs (or without JavaScript) a plain text area takes the same name.
 * The server sanitises whatever arrives.
 */
export function RichTextEditor({ name, id, defaultValue, invalid, describedBy }: EditorProps) {
  const [html, setHtml] = useState(defaultValue);
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        code: false,
        codeBlock: false,
        link: { openOnClick: false, autolink: true, protocols: ["http", "https", "mailto"] },
      }),
      Image.configure({ inline: false }),
    ],
    content: defaultValue,
    immediatelyRender: false,
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
    onUpdate: ({ editor: current }) => setHtml(current.isEmpty ? "" : current.getHTML()),
  });

  if (!editor) {
    return (
      <textarea
        id={id}
        name={name}
        rows={15}
        defaultValue={defaultValue}
        aria-labelledby={`${id}-libelle`}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={inputClass}
      />
    );
  }
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

function Toolbar({ editor }: { editor: Editor }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState<number | null>(null);
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
      canUndo: current.can().undo(),
      canRedo: current.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();

  function editLink() {
    const previous = (editor.getAttributes("link").href as string | undefined) ?? "";
    const href = window.prompt("Adresse du lien (laisser vide pour retirer le lien)", previous);
    if (href === null) return;
    if (href.trim() === "") chain().extendMarkRange("link").unsetLink().run();
    else chain().extendMarkRange("link").setLink({ href: href.trim() }).run();
  }

  async function insertImage(file: File) {
    setUploading(0);
    try {
      const src = await uploadImage(file, setUploading);
      chain().setImage({ src, alt: "" }).run();
    } catch (error) {
      const reason = error instanceof UploadError ? error.message : "Erreur inattendue.";
      toast.error("Erreur", { description: `Impossible d'uploader l'image. ${reason}` });
    } finally {
      setUploading(null);
    }
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
        disabled={uploading !== null}
        onClick={() => fileInput.current?.click()}
      >
        <ImagePlus aria-hidden="true" />
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
          if (file) void insertImage(file);
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
      {uploading !== null ? (
        <span className="ml-2 text-xs text-muted-foreground" aria-live="polite">
          Envoi de l'image… {Math.round(uploading * 100)} %
        </span>
      ) : null}
    </div>
  );
}
