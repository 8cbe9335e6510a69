// The app's modules that the command-line scripts load: an entry of the production server build (vite.config.ts),
// written as BUILD_DIR/server/command-line.js. Scripts run the build's code, compiled as the site's, without
// Vite at run time (decision 0135); each module is imported on first use, so a script loads only what it asks
// for. Never imported from its source: scripts reach it through scripts/lib/app-loader.ts.
export const appModules = {
  "app/lib/booking/slots.ts": () => import("../../app/lib/booking/slots.ts"),
  "app/server/admin/administrators.server.ts": () =>
    import("../../app/server/admin/administrators.server.ts"),
  "app/server/auth/auth.server.ts": () => import("../../app/server/auth/auth.server.ts"),
  "app/server/backup/backup.server.ts": () => import("../../app/server/backup/backup.server.ts"),
  "app/server/backup/restore.server.ts": () => import("../../app/server/backup/restore.server.ts"),
  "app/server/backup/service.server.ts": () => import("../../app/server/backup/service.server.ts"),
  "app/server/boot/database.server.ts": () => import("../../app/server/boot/database.server.ts"),
  "app/server/boot/jobs.server.ts": () => import("../../app/server/boot/jobs.server.ts"),
  "app/server/db/client.server.ts": () => import("../../app/server/db/client.server.ts"),
  "app/server/db/embedded.server.ts": () => import("../../app/server/db/embedded.server.ts"),
  "app/server/env.server.ts": () => import("../../app/server/env.server.ts"),
  "app/server/jobs/queue.server.ts": () => import("../../app/server/jobs/queue.server.ts"),
  "app/server/newsletter/sending.server.ts": () =>
    import("../../app/server/newsletter/sending.server.ts"),
  "app/server/blog/demo-articles.server.ts": () =>
    import("../../app/server/blog/demo-articles.server.ts"),
  "app/server/accounting/exports.server.ts": () =>
    import("../../app/server/accounting/exports.server.ts"),
  "app/server/content/content-store.server.ts": () =>
    import("../../app/server/content/content-store.server.ts"),
  "app/server/invoices/orders.server.ts": () =>
    import("../../app/server/invoices/orders.server.ts"),
  "app/server/payments/order-kinds.server.ts": () =>
    import("../../app/server/payments/order-kinds.server.ts"),
  "app/server/payments/orders.server.ts": () =>
    import("../../app/server/payments/orders.server.ts"),
  "app/server/storage/keys.ts": () => import("../../app/server/storage/keys.ts"),
  "app/server/storage/s3.server.ts": () => import("../../app/server/storage/s3.server.ts"),
  "app/server/storage/storage.server.ts": () =>
    import("../../app/server/storage/storage.server.ts"),
} satisfies Record<string, () => Promise<unknown>>;
