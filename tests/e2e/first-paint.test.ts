import {
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hydrated, layoutShifts, useBrowser } from "./support/browser";

// Decision 0107: a browser short of time paints the part of the HTML it has parsed so far. What the rest
// adds must not move what was drawn. Here the HTML comes in two parts, cut where a layout once moved: the
// proxy holds the second part back until the page has painted the first (an event, not a pause the browser
// must paint within: a busy machine once painted 250 ms after a 1.2 s pause), then nothing moves when the
// rest comes.

/** How long the page may take to paint its first part before the test fails (a bound, not a wait). */
const PAINT_TIMEOUT_MS = 30_000;

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
 * The page the proxy holds back: whether it found the place to cut it (settled once the first part is
 * sent, or the whole page when the cut is missing), and `release`, which sends the rest.
 */
type Hold = {
  cut: Cut;
  found: Promise<boolean>;
  sayFound: (found: boolean) => void;
  released: Promise<void>;
  release: () => void;
};

function holdBack(cut: Cut): Hold {
  let sayFound: (found: boolean) => void = () => {};
  let release: () => void = () => {};
  const found = new Promise<boolean>((resolve) => (sayFound = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return { cut, found, sayFound, released, release };
}
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
  const headers = { ...answer.headers };
  delete headers["content-length"];
  outgoing.writeHead(answer.statusCode ?? 502, headers);
  if (at <= 0) {
    // The test checks that the cut was found (a changed page must not pass without being held).
    hold.sayFound(false);
    outgoing.end(html);
    return;
  }
  outgoing.write(html.slice(0, at));
  hold.sayFound(true);
  await hold.released;
  outgoing.end(html.slice(at));
}

describe("first paint", () => {
  it.each(cuts)(
    "$path, its HTML held back at $what: painted with the first part, nothing moves when the rest comes",
    async (cut) => {
      const hold = holdBack(cut);
      held = hold;
      try {
        const page = await openPage(cut.path, { waitUntil: "commit" });
        expect(await hold.found, "the place where the HTML is cut").toBe(true);
        // The first part is painted while the rest is held: the document is still being parsed.
        await page.waitForFunction(
          () =>
            performance.getEntriesByName("first-contentful-paint").length > 0 &&
            document.readyState === "loading",
          null,
          { timeout: PAINT_TIMEOUT_MS },
        );
        hold.release();
        await page.waitForLoadState("load");
        await hydrated(page);
        expect((await layoutShifts(page)).total).toBe(0);
      } finally {
        hold.release();
        held = undefined;
      }
    },
  );
});
