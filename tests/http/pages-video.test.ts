import { describe, expect, it } from "vitest";
import { fetchPage } from "../support/html";

/*
 * /gendarmerie's video as the server sends it: no player, only a link to it (for browsers without
 * JavaScript). The click that loads the player from youtube-nocookie.com is tested in the browser
 * (tests/e2e/pages-video.test.ts).
 */

describe("/gendarmerie video", () => {
  it("sends no player in the HTML, only a link to the video for browsers without JavaScript", async () => {
    const { status, html, document } = await fetchPage("/gendarmerie");
    expect(status).toBe(200);
    expect(html).not.toContain("<iframe");
    expect(document.querySelectorAll("iframe")).toHaveLength(0);
    expect(html).toMatch(
      /<a href="https:\/\/www\.youtube-nocookie\.com\/embed\/[\w-]+\?autoplay=1&amp;rel=0"/,
    );
  });
});
