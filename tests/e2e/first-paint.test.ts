import {
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { layoutShifts, useBrowser } from "./support/browser";

// Decision 0107: a browser short of time paints the part of the HTML it has parsed so far. What the rest
// adds must not move what was drawn. Here the HTML comes in two parts, with a pause between them, cut where
// a layout once moved: the page is painted during the pause, and nothing moves when the rest comes.

/** How long the document's second part is held back. */
const PAUSE_MS = 1_200;

/** Where each page's HTML is cut: before the first match of the pattern (the part before it is sent). */
type Cut = { path: string; before: RegExp; what: string };
const cuts: Cut[] = [
  // The header's menu is at the right: drawn up to « Studios », its arrow moved 395 px to the left when the
  // other links came (0.00017, the shift two CI runs measured on first pages).
  { path: "/tarifs", before: /<div id="menu-studios"/, what: "the header's menu" },
  // The hero's text is centred on the photo: its first line drawn alone moved up 135 px (0.045).
  { path: "/", before: /<h1[^>]*>/, what: "the hero's title" },
  // The search field's icon is centred on its field: drawn before it, it moved down 24 px (0.000016).
  { path: "/blog", before: /<input[^>]*id="recherche-blog"/, what: "the blog's search field" },
];

let proxy: Server | undefined;
let proxyUrl = "";
/**
 * The page the proxy holds back, whether it found the place to cut it, and when (epoch ms) it sent the
 * rest after the pause.
 */
type Hold = { cut: Cut; found: boolean; restSentAt?: number };
let held: Hold | undefined;

const { openPage, baseUrl } = useBrowser({ baseUrl: () => proxyUrl });

/** A loopback proxy to the suite's server that holds back the second part of the page in `held`. */
beforeAll(async () => {
  const upstream = new URL(baseUrl);
  proxy = createServer((incoming, outgoing) => {
    const hold = incoming.url === held?.cut.path ? held : undefined;
    const headers = { ...incoming.headers, host: upstream.host };
    // The held page comes uncompressed, so that it can be cut in its text.
    if (hold) delete headers["accept-encoding"];
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: incoming.url,
        method: incoming.method,
        headers,
      },
      (answer) => {
        if (!hold) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
          return;
        }
        void sendInTwoParts(answer, outgoing, hold);
      },
    );
    forwarded.on("error", () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy?.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise((resolve) => proxy?.close(resolve));
});

async function sendInTwoParts(
  answer: IncomingMessage,
  outgoing: ServerResponse,
  hold: Hold,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of answer) chunks.push(chunk as Buffer);
  const html = Buffer.concat(chunks).toString("utf8");
  const at = html.search(hold.cut.before);
  hold.found = at > 0;
  const headers = { ...answer.headers };
  delete headers["content-length"];
  outgoing.writeHead(answer.statusCode ?? 502, headers);
  if (!hold.found) {
    // The test checks that the cut was found (a changed page must not pass without its pause).
    outgoing.end(html);
    return;
  }
  outgoing.write(html.slice(0, at));
  await sleep(PAUSE_MS);
  hold.restSentAt = Date.now();
  outgoing.end(html.slice(at));
}

/**
 * When (epoch ms, the machine's clock that the proxy reads too) the page's first contentful paint came, or
 * -1 without one.
 */
function paintedAt(page: Page) {
  return page.evaluate(() => {
    const paint = performance.getEntriesByName("first-contentful-paint")[0];
    return paint ? performance.timeOrigin + paint.startTime : -1;
  });
}

describe("first paint", () => {
  it.each(cuts)(
    "$path, its HTML held back at $what: painted with the first part, nothing moves when the rest comes",
    async (cut) => {
      held = { cut, found: false };
      const page = await openPage(cut.path);
      const shifts = (await layoutShifts(page)).total;
      const paint = await paintedAt(page);
      const hold = held;
      held = undefined;
      expect(hold.found, "the place where the HTML is cut").toBe(true);
      // The first part was painted before the proxy even sent the rest (a bound the test reads from the two
      // clocks' events, not from how long the browser took to note them), and nothing moved.
      expect(hold.restSentAt).toBeGreaterThan(0);
      expect(paint).toBeGreaterThan(0);
      expect(paint).toBeLessThan(hold.restSentAt ?? 0);
      expect(shifts).toBe(0);
    },
  );
});
