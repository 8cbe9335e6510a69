import { readdirSync } from "node:fs";
import { announceQueueStop, stopJobQueue } from "../jobs/queue.server";
import { ensureAdministrator } from "../boot/administrator.server";
import { prepareDatabase } from "../boot/database.server";
import { startSiteJobQueue, startWorkers } from "../boot/jobs.server";
import { closeMailTransport } from "../mail/transport.server";
import path from "node:path";
import { createServer, type Server } from "node:http";
import { fileURLToPath } from "node:url";
import compression from "compression";
import express from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { clientForLimits } from "../client-address";
import {
  clientAddressContext,
  cspNonceContext,
  pageRenderContext,
  type PageRender,
} from "../context";
import { flushArticleViews } from "../blog/article-views.server";
import {
  currentSiteContent,
  readContentVersionWithContent,
  readSiteContent,
  siteContentContext,
  type SiteContent,
} from "../content/site-content.server";
import {
  listenToContentVersion,
  type ContentVersionListener,
} from "../content/content-version-listener.server";
import { requestedPreview, withPreview } from "../content/preview.server";
import { closeDatabase, connectDatabase, databaseIsHealthy } from "../db/client.server";
import {
  DataFolderInUseError,
  startEmbeddedPostgres,
  type EmbeddedPostgres,
} from "../db/embedded.server";
import { installQueryStats, withQueryStats } from "../db/query-stats.server";
import { seedDemoContentIfEmpty } from "../blog/demo-articles.server";
import { env, EnvError } from "../env.server";
import { log } from "../logger.server";
import { cachePolicy, canonicalPrivateAreas } from "./cache-policy.server";
import { fastHits } from "./fast-hit.server";
import { methodGuard } from "./methods.server";
import { crossSiteLeavesOnly, originCheck } from "./origin-check.server";
import { reportMemoryOnSignal, reportPageCache, reportPool } from "./memory-report.server";
import { holdsCachedPages, pageCache } from "./page-cache.server";
import { hashedAssets } from "./precompressed-assets.server";
import { reactRouterHandler } from "./react-router-handler.server";
import { answerClientError } from "./refusal.server";
import { requestLog } from "./request-log.server";
import {
  cleanAddress,
  decodedPath,
  requestInput,
  type RequestInputOptions,
} from "./request-input.server";
import { refreshPolicy, securityHeaders } from "./security.server";
import {
  cardFormActions,
  cardProvider,
  registerEnvironmentWebhookAtStart,
} from "../payments/card.server";
import { receiveProviderEvent } from "../payments/inbox.server";
import { STRIPE_WEBHOOK_PATH, stripeWebhook } from "./stripe-webhook.server";
import { serveUploads } from "./serve-uploads.server";
import {
  claimFileStore,
  fileStoreOf,
  FileStoreConflictError,
  type FileStoreClaim,
} from "../storage/file-store-claim.server";
import { checkStorageAtStart, storage } from "../storage/storage.server";

type AppOptions = {
  viteDevServer?: ViteDevServer;
  /** The content version known without a round trip (decision 0093); without it, read per request. */
  contentVersion?: ContentVersionListener;
};

const KIB = 1024;
const MIB = 1024 * KIB;

/**
 * How much each path may receive. Public forms hold a few short fields and a message
 * of 5,000 characters at most: 256 KB and 20,000 characters a field are far beyond any real visitor, while a
 * pasted address of 10,000 characters still reaches its form and gets the form's own French message.
 * The admin's articles hold long HTML; its image upload streams large originals to disk.
 */
export const BODY_LIMITS: RequestInputOptions = {
  defaultLimit: { maxBytes: 256 * KIB, maxFieldLength: 20_000 },
  limits: [
    { path: "/admin/articles", maxBytes: 4 * MIB },
    // The subscriber import's CSV (2 MB at most: a bit more reaches the page, which says so in French).
    { path: "/admin/subscribers/importer", maxBytes: 3 * MIB },
    { path: "/admin/images", maxBytes: 64 * MIB, stream: true },
    // The media library's upload (the page without JavaScript and its script's /envoi under it).
    { path: "/admin/medias/televerser", maxBytes: 64 * MIB, stream: true },
    // A client gallery's photos arrive in pieces of 8 MiB (decision 0101); one whole by the form without JS.
    { path: "/admin/envois", maxBytes: 8 * MIB + 64 * KIB, stream: true },
    { path: "/admin/envois/formulaire", maxBytes: 64 * MIB, stream: true },
  ],
};

/**
 * Slow senders: the headers must arrive within 20 s, a form's body within 30 s
 * (BODY_LIMITS), and a whole request within 20 minutes: a 50 MB photo sent from a rural ADSL line
 * (about 0.5 Mbit/s up) takes 14. Otherwise Node answers 408 and closes the connection.
 */
export const SERVER_TIMEOUTS = { headersTimeoutMs: 20_000, requestTimeoutMs: 20 * 60_000 };

/**
 * The page cache's bound for a small server (decision record 0092): about 700 pages of 45 KB, more than the
 * public pages of a site this size, and a bounded share of a 1 GB machine.
 */
const PAGE_CACHE_BYTES = 32 * MIB;

function trustProxySetting(value: string | undefined): boolean | number | string {
  if (value === undefined) return false;
  if (/^\d+$/.test(value)) return Number(value);
  if (value === "true") return true;
  if (value === "false") return false;
  return value;
}

/** Every file under `directory` except the hashed assets, as URL paths ("/images/logo.svg"). */
function listPublicFiles(directory: string): Set<string> {
  const files = new Set<string>();
  const entries = readdirSync(directory, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const relative = path.relative(directory, path.join(entry.parentPath, entry.name));
    if (relative.startsWith(`assets${path.sep}`)) continue;
    files.add(`/${relative.split(path.sep).join("/")}`);
  }
  return files;
}

/**
 * The Express application, and the fast path that answers cached pages before it (decision 0093) when the
 * page cache is on: a request listener calls `serveFastHit` first and hands what it declines to `app`.
 */
/**
 * What the compression middleware may gzip: not a download that says its length (a backup, already
 * compressed inside): gzip would drop the length, and the browser could not show how much is left.
 */
function compressible(req: express.Request, res: express.Response): boolean {
  const disposition = String(res.getHeader("Content-Disposition") ?? "");
  if (disposition.startsWith("attachment") && res.getHeader("Content-Length") !== undefined) {
    return false;
  }
  return compression.filter(req, res);
}

export function createApp({ viteDevServer, contentVersion }: AppOptions = {}) {
  const config = env();
  const app = express();
  app.disable("x-powered-by");
  // Behind a reverse proxy, TRUST_PROXY makes req.ip, req.secure (HSTS) and rate limits see the client.
  app.set("trust proxy", trustProxySetting(config.TRUST_PROXY));
  app.use(compression({ filter: compressible }));
  // Our forms may lead to the card provider's hosted page while there are card keys (decisions 0163, 0166).
  const formActions = cardFormActions();
  app.use(securityHeaders({ development: Boolean(viteDevServer), formActions }));
  app.use(canonicalPrivateAreas());
  app.use(cachePolicy());
  app.use(requestLog());
  // Stripe's webhook (decision 0163): verified on its raw body before anything reads it, before the
  // content version, the form origin check and the body parsers; no cookie read or set.
  app.all(
    STRIPE_WEBHOOK_PATH,
    stripeWebhook({
      provider: cardProvider,
      receive: (event) => receiveProviderEvent("stripe", event),
    }),
  );
  // An administrator's action in this process may change content: the known version is set aside until it
  // has answered and the version was read again, so her own change shows at once (decision 0093).
  if (contentVersion) {
    app.use((req, res, next) => {
      if (holdsCachedPages(req.method, req.path, req.headers.cookie !== undefined)) {
        res.once("close", contentVersion.holdForLocalWrite());
      }
      next();
    });
  }
  // `Server-Timing: db;dur=…;desc="N queries"` on every response: how many database round trips it took.
  installQueryStats();
  app.use((_req, res, next) => {
    withQueryStats((stats) => {
      const writeHead = res.writeHead;
      res.writeHead = function (this: typeof res, ...args: Parameters<typeof res.writeHead>) {
        if (!res.headersSent) {
          res.setHeader(
            "Server-Timing",
            `db;dur=${stats.milliseconds.toFixed(1)};desc="${stats.count} queries"`,
          );
        }
        return writeHead.apply(this, args);
      } as typeof res.writeHead;
      next();
    });
  });
  app.use(originCheck(config.SITE_URL));

  const build = viteDevServer
    ? () => viteDevServer.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>
    : () => import("virtual:react-router/server-build") as Promise<ServerBuild>;

  // Bad input stops here, before any file, loader or action sees it: addresses that do not decode to
  // clean text (400), methods the route cannot take (405, from the route table), bodies over the path's
  // limit (413); form posts are normalised. See request-input.server.ts.
  app.use(cleanAddress());
  app.use(methodGuard(build));
  app.use(requestInput(BODY_LIMITS));
  app.use(crossSiteLeavesOnly());

  app.get("/healthz", async (_req, res) => {
    const healthy = await databaseIsHealthy();
    res.setHeader("Cache-Control", "no-store");
    // The content version this process serves cached pages under, « read » while it reads it per request
    // (decision 0093): an operator, or a test that changed content through its own connection, sees
    // whether this process has caught up.
    res.setHeader("X-Content-Version", String(contentVersion?.current() ?? "read"));
    res.status(healthy ? 200 : 503).json({ status: healthy ? "ok" : "unavailable" });
  });

  // Photos go out in newsletters: a webmail shows them from its own origin (and the admin's preview from
  // a sandbox), which the default `Cross-Origin-Resource-Policy: same-origin` would refuse.
  const embeddable = (res: express.Response) =>
    res.setHeader("Cross-Origin-Resource-Policy", "cross-origin");

  // Uploaded blog images and the media library (never rewritten under the same name: random +
  // timestamp), from the local disk or S3; nothing else of the store (client galleries) is served here.
  app.use(
    "/uploads",
    serveUploads(storage, { setHeaders: embeddable }),
    (_req, res) => void res.status(404).end(),
  );

  if (viteDevServer) {
    app.use(viteDevServer.middlewares);
  } else {
    // This module is build/server/index.js once built; the browser assets sit in build/client.
    const clientDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");
    // Hashed build assets never change under the same name; brotli-compressed by the build (decision 0094).
    app.use(
      "/assets",
      hashedAssets(path.join(clientDirectory, "assets")),
      (_req, res) => void res.status(404).end(),
    );
    // The other public files (favicon, images) are listed once: a page request must not cost a disk
    // lookup for a file that cannot exist.
    const publicFiles = listPublicFiles(clientDirectory);
    const servePublicFile = express.static(clientDirectory, {
      maxAge: "1h",
      index: false,
      setHeaders: embeddable,
    });
    app.use((req, res, next) => {
      if (publicFiles.has(decodedPath(req.path))) servePublicFile(req, res, next);
      else next();
    });
  }

  // Public pages are rendered once and served again while nothing they show has changed (decisions 0006,
  // 0093). Not in development, where the code itself changes under the cache.
  const cache = viteDevServer
    ? undefined
    : pageCache({
        readContentVersion: readContentVersionWithContent,
        knownContentVersion: () => contentVersion?.current(),
        maxBytes: PAGE_CACHE_BYTES,
      });
  if (cache) {
    reportPageCache(cache.size);
    app.use(cache.middleware);
  }

  app.use(
    reactRouterHandler({
      build,
      mode: viteDevServer ? "development" : "production",
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(cspNonceContext, String(res.locals.cspNonce ?? ""));
        context.set(clientAddressContext, clientForLimits(req.ip));
        const pageRender = (res.locals.pageRender as PageRender | undefined) ?? null;
        context.set(pageRenderContext, pageRender);
        // The page cache has just read the version for this request, and the site's content with it.
        // An administrator's `?apercu=` shows her unsaved changes in it (preview.server.ts).
        let content: Promise<SiteContent> | undefined;
        context.set(siteContentContext, () => {
          content ??= (async () => {
            const current =
              (pageRender ? currentSiteContent() : undefined) ?? (await readSiteContent());
            // The policy follows the content this page is rendered from (its form-action).
            if (!res.headersSent) refreshPolicy(res);
            const previewId = requestedPreview(new URL(req.originalUrl, "http://localhost"));
            if (!previewId) return current;
            const headers = new Headers();
            if (req.headers.cookie) headers.set("cookie", req.headers.cookie);
            return withPreview(current, previewId, new Request(config.SITE_URL, { headers }));
          })();
          return content;
        });
        return context;
      },
    }),
  );
  const serveFastHit = cache
    ? fastHits({
        cache,
        formActions,
        trustProxy: app.get("trust proxy fn") as (
          address: string | undefined,
          hop: number,
        ) => boolean,
      })
    : undefined;
  return { app, serveFastHit };
}

export type RunningServer = { server: Server; url: string; stop: () => Promise<void> };

/**
 * Boots the whole site: configuration, database (embedded unless DATABASE_URL), migrations, HTTP server,
 * and an orderly shutdown on SIGTERM/SIGINT: stop accepting, let in-flight requests finish, close the pool,
 * then stop the embedded database.
 */
export async function startServer(options: AppOptions = {}): Promise<RunningServer> {
  let config;
  try {
    config = env();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(`\n✖ ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const started = Date.now();
  // With S3, one question to the bucket: a wrong setting stops the start here (decision 0100).
  let storageKind;
  try {
    storageKind = await checkStorageAtStart(config);
  } catch (error) {
    log.error("storage_unreachable", { error });
    console.error(`\n✖ ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  let embedded: EmbeddedPostgres | undefined;
  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    try {
      embedded = await startEmbeddedPostgres({
        directory: path.join(config.dataDir, "postgres"),
        port: config.EMBEDDED_PG_PORT,
        holdDataFolder: true,
      });
    } catch (error) {
      // Another live server holds this data folder: it is left as it is, and this start says why it stops.
      if (!(error instanceof DataFolderInUseError)) throw error;
      log.error("data_folder_in_use", { dataDir: config.dataDir });
      console.error(`\n✖ ${error.message}\n`);
      process.exit(1);
    }
    databaseUrl = embedded.url;
  }

  // Every server on this database uses the same files, or this one stops here (decision 0119).
  let fileStoreClaim: FileStoreClaim;
  try {
    fileStoreClaim = await claimFileStore(databaseUrl, fileStoreOf(config));
  } catch (error) {
    if (!(error instanceof FileStoreConflictError)) throw error;
    log.error("file_store_conflict", { storage: storageKind });
    console.error(`\n✖ ${error.message}\n`);
    await embedded?.stop();
    process.exit(1);
  }

  const database = connectDatabase(databaseUrl);
  reportPool(() => database.$client);
  try {
    // The demo takes bookings out of the box, on the same databases as the demo blog (decision 0126).
    await prepareDatabase(database, { demo: Boolean(embedded) && config.SEED_DEMO });
  } catch (error) {
    log.error("migrations_failed", { error });
    await fileStoreClaim.release();
    await closeDatabase();
    await embedded?.stop();
    throw error;
  }
  // A brand-new embedded database shows a living blog; SEED_DEMO=0 turns it off.
  if (embedded && config.SEED_DEMO) await seedDemoContentIfEmpty(database, log);
  await ensureAdministrator();
  // The job queue and this process's workers of every job, the nightly personal-data purge among them
  // (decisions 0080 and 0149).
  await startSiteJobQueue(databaseUrl);
  await startWorkers();
  // The environment's Stripe key without its webhook secret: the endpoint registers itself (decision 0166).
  void registerEnvironmentWebhookAtStart();

  // The content version without a round trip per request (decision 0093); not in development.
  const contentVersion = options.viteDevServer
    ? undefined
    : listenToContentVersion({ databaseUrl, readVersion: readContentVersionWithContent });
  const { app, serveFastHit } = createApp({ ...options, contentVersion });
  const server = createServer(
    serveFastHit ? (req, res) => void (serveFastHit(req, res) || app(req, res)) : app,
  );
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off("error", reject);
      resolve();
    });
  });
  server.headersTimeout = SERVER_TIMEOUTS.headersTimeoutMs;
  server.requestTimeout = SERVER_TIMEOUTS.requestTimeoutMs;
  server.on("clientError", answerClientError);
  const stopMemoryReport = reportMemoryOnSignal();
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  const url = `http://${config.HOST === "0.0.0.0" || config.HOST === "::" ? "localhost" : config.HOST}:${port}`;
  // Whatever LOG_LEVEL says: the line an operator (and a test harness) waits for.
  log.report("server_started", {
    url,
    database: embedded ? "embedded" : "external",
    storage: storageKind,
    startupMs: Date.now() - started,
  });

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      log.info("server_stopping");
      // The jobs stop at their next step now, not once the requests are done: a newsletter being sent
      // would otherwise go on for as long as a slow request keeps the server open.
      announceQueueStop();
      // Requests still running after 10 s are cut so that a stuck client cannot block the shutdown.
      const force = setTimeout(() => server.closeAllConnections(), 10_000);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      clearTimeout(force);
      await flushArticleViews();
      // A job being sent finishes (up to 10 s); what is left waits in the queue for the next start.
      await stopJobQueue();
      await contentVersion?.stop();
      await fileStoreClaim.release();
      closeMailTransport();
      stopMemoryReport();
      await closeDatabase();
      await embedded?.stop();
      log.info("server_stopped");
    })();
    return stopping;
  };

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          log.error("shutdown_failed", { error });
          process.exit(1);
        },
      );
    });
  }
  return { server, url, stop };
}
