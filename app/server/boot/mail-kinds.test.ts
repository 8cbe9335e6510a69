import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAIL_LABELS } from "~/lib/payments/admin-words";
import { MAIL_KINDS } from "./mail-kinds.server";

const app = path.resolve(import.meta.dirname, "../..");

/** The kinds of e-mail the features define, read from their sources. */
function kindsInSources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return kindsInSources(full);
    if (!/\.server\.ts$/.test(entry.name)) return [];
    const source = readFileSync(full, "utf8");
    return [...source.matchAll(/defineMailKind(?:<[^(]*?>)?\(\s*"([^"]+)"/g)].map(
      (match) => match[1] as string,
    );
  });
}

describe("the mail worker's kinds", () => {
  it("are every kind a feature defines: the worker can write any job it is given", () => {
    const inSources = kindsInSources(app).sort();
    expect(inSources).toEqual([
      "accountant-files",
      "admin",
      "backup-failed",
      "backup-missed",
      "backup-monthly-link",
      "booking-client",
      "booking-owner",
      "confirmation",
      "contact",
      "gallery-invitation",
      "gallery-photo-order",
      "gallery-photo-order-called-off",
      "gallery-photo-order-deadline",
      "gallery-selection",
      "gallery-selection-receipt",
      "newsletter-test",
      "payment-buyer",
      "payment-owner",
      "voucher-delivery",
      "voucher-order",
      "voucher-reminder",
      "voucher-reminder-undelivered",
      "voucher-undelivered",
    ]);
    expect(MAIL_KINDS.map((kind) => kind.kind).sort()).toEqual(inSources);
  });

  it("each have the words an order's history shows the owner", () => {
    expect(MAIL_KINDS.map((kind) => kind.kind).filter((kind) => !MAIL_LABELS[kind])).toEqual([]);
  });
});
