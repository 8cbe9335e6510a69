import { Play } from "lucide-react";
import { useState } from "react";
import { Photo } from "~/components/ui/photo";
import type { SitePhoto } from "~/lib/media";

/** The video of a service card: nothing is loaded from the video host before the visitor asks for it. */
export type ServiceVideo = { youtubeId: string; title: string; poster: SitePhoto };

/** Videos play from YouTube's privacy-enhanced host (the only one the CSP allows in frames). */
export const VIDEO_HOST = "https://www.youtube-nocookie.com";

export const videoEmbedUrl = (youtubeId: string) =>
  `${VIDEO_HOST}/embed/${encodeURIComponent(youtubeId)}?autoplay=1&rel=0`;

/**
 * A local poster with a play button: nothing is requested from the video host until the visitor clicks
 * (privacy, speed). Then the player replaces the poster. Without JavaScript the link opens the video itself.
 */
export function VideoPlaceholder({ video, sizes }: { video: ServiceVideo; sizes: string }) {
  const [playing, setPlaying] = useState(false);

  if (playing) {
    return (
      <iframe
        src={videoEmbedUrl(video.youtubeId)}
        title={video.title}
        className="aspect-video w-full"
        allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
      />
    );
  }

  return (
    <a
      href={videoEmbedUrl(video.youtubeId)}
      // On a light page (decision 0090) the plain script of app/light-script.ts makes the same player.
      data-video-title={video.title}
      onClick={(event) => {
        event.preventDefault();
        setPlaying(true);
      }}
      className="group/video relative block aspect-video overflow-hidden bg-stone-900"
    >
      <Photo photo={video.poster} alt="" sizes={sizes} className="absolute inset-0 opacity-80" />
      <span className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black/30 p-4 text-center text-white">
        <span className="flex size-16 items-center justify-center rounded-full bg-gold text-primary shadow-lg transition-transform group-hover/video:scale-110">
          <Play aria-hidden="true" className="size-7 translate-x-0.5" />
        </span>
        <span className="font-semibold">Lire la vidéo : {video.title}</span>
        <span className="text-xs text-stone-100">
          La vidéo est hébergée par YouTube : elle ne se charge qu'après votre clic.
        </span>
      </span>
    </a>
  );
}
