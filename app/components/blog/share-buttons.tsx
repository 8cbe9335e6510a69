import { Link2 } from "lucide-react";
import { SocialIcon } from "~/components/layout/social-icons";
import { cn } from "~/lib/utils";

const linkedInPath =
  "M20.45 20.45h-3.56v-5.57c0-1.33-.03-3.04-1.85-3.04-1.85 0-2.14 1.45-2.14 2.94v5.67H9.35V9h3.41v1.56h.05c.48-.9 1.64-1.85 3.37-1.85 3.6 0 4.27 2.37 4.27 5.46v6.28ZM5.34 7.43a2.06 2.06 0 1 1 0-4.13 2.06 2.06 0 0 1 0 4.13ZM7.12 20.45H3.56V9h3.56v11.45Z";

const buttonClass =
  "inline-flex size-11 items-center justify-center rounded-full border border-border bg-white text-foreground shadow-sm transition-colors hover:bg-muted";

/**
 * Facebook, LinkedIn (new tab, this page's canonical address) and copy-link: a column beside the article on
 * large screens, a row above it on small ones (the parent decides with `className`). The article's page is
 * light (decision 0137): « Copier le lien » is the light script's (`data-copy-link`), hidden until it runs,
 * and says what happened in the live region beside it.
 */
export function ShareButtons({ url, className }: { url: string; className?: string }) {
  const encoded = encodeURIComponent(url);

  return (
    <ul aria-label="Partager cet article" className={cn("flex gap-3", className)}>
      <li>
        <a
          href={`https://www.facebook.com/sharer/sharer.php?u=${encoded}`}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClass}
        >
          <SocialIcon name="Facebook" className="size-5" />
          <span className="sr-only">Partager sur Facebook (nouvel onglet)</span>
        </a>
      </li>
      <li>
        <a
          href={`https://www.linkedin.com/sharing/share-offsite/?url=${encoded}`}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClass}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" className="size-5" fill="currentColor">
            <path d={linkedInPath} />
          </svg>
          <span className="sr-only">Partager sur LinkedIn (nouvel onglet)</span>
        </a>
      </li>
      <li className="relative" hidden data-copy-link={url}>
        <button type="button" className={buttonClass}>
          <Link2 aria-hidden="true" className="size-5" />
          <span className="sr-only">Copier le lien</span>
        </button>
        <span
          role="status"
          className="absolute top-full left-0 z-10 mt-2 rounded-md bg-stone-900 px-2 py-1 text-sm whitespace-nowrap text-white empty:p-0"
        />
      </li>
    </ul>
  );
}
