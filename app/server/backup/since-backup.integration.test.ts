import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useAppDatabase } from "../../../tests/support/database";
import { insertPhotographer, insertSessionType, studioIds } from "../../../tests/support/booking";
import { db } from "../db/client.server";
import { blogNewsletterSubscribers, bookings, contactMessages, galleries } from "../db/schema";
import { erasedSince } from "./since-backup.server";

useAppDatabase();

describe("what a restore of a backup erases", () => {
  it("counts the bookings, galleries, messages and subscribers made since, and lists the clients to call", async () => {
    const backupAt = new Date("2026-11-20T02:00:00Z");
    const before = new Date("2026-11-19T10:00:00Z");
    const after = (hours: number) => new Date(backupAt.getTime() + hours * 3_600_000);
    const { brive } = await studioIds();
    const sessionTypeId = await insertSessionType([brive]);
    const photographerId = await insertPhotographer("Claire", [brive]);
    const booking = (name: string, phone: string, startsAt: Date, createdAt: Date) => ({
      sessionTypeId,
      studioId: brive,
      photographerId,
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3_600_000),
      state: "confirmed" as const,
      clientName: name,
      clientEmail: `${name.split(" ")[0]?.toLowerCase()}@example.test`,
      clientPhone: phone,
      manageTokenHash: randomBytes(32).toString("hex"),
      createdAt,
    });
    await db()
      .insert(bookings)
      .values([
        booking("Avant Sauvegarde", "06 00 00 00 00", new Date("2026-12-01T09:00:00Z"), before),
        booking("Léa Martin", "06 12 34 56 78", new Date("2026-12-03T09:00:00Z"), after(5)),
        booking("Inès Roux", "", new Date("2026-12-02T13:30:00Z"), after(30)),
        booking("Paul Henry", "07 98 76 54 32", new Date("2026-12-10T15:00:00Z"), after(48)),
      ]);
    await db()
      .insert(contactMessages)
      .values(
        [before, after(2)].map((createdAt) => ({
          studio: "brive",
          shootingType: "famille",
          prenom: "Anne",
          nom: "Lefèvre",
          email: "anne@example.test",
          message: "Bonjour",
          createdAt,
        })),
      );
    await db()
      .insert(blogNewsletterSubscribers)
      .values([
        { email: "avant@example.test", consentSource: "blog", subscribedAt: before },
        { email: "apres-1@example.test", consentSource: "blog", subscribedAt: after(1) },
        { email: "apres-2@example.test", consentSource: "blog", subscribedAt: after(3) },
      ]);
    await db()
      .insert(galleries)
      .values({
        title: "Mariage",
        clientName: "Camille",
        clientEmail: "camille@example.test",
        expiresAt: new Date("2027-01-01T00:00:00Z"),
        purgeAt: new Date("2027-02-01T00:00:00Z"),
        accessCode: "ABCD2345",
        createdAt: after(4),
      });

    const erased = await erasedSince(backupAt);
    expect(erased).toMatchObject({ bookings: 3, galleries: 1, messages: 1, subscribers: 2 });
    // By the time of their session: whom to call first.
    expect(erased.clients).toEqual([
      {
        name: "Inès Roux",
        phone: "",
        email: "inès@example.test",
        startsAt: "2026-12-02T13:30:00.000Z",
      },
      {
        name: "Léa Martin",
        phone: "06 12 34 56 78",
        email: "léa@example.test",
        startsAt: "2026-12-03T09:00:00.000Z",
      },
      {
        name: "Paul Henry",
        phone: "07 98 76 54 32",
        email: "paul@example.test",
        startsAt: "2026-12-10T15:00:00.000Z",
      },
    ]);
  });
});
