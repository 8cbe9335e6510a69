import { randomBytes } from "node:crypto";
import { and, asc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { formatLongDateTimeFr } from "~/lib/dates";
import { isUuid } from "~/lib/forms";
import type { SessionTypeValue } from "~/lib/booking/session-type-form";
import { bookableHoursSchema, bookingQuestionsSchema } from "~/lib/booking/session-types";
import {
  askedDepositOf,
  depositRuleOf,
  depositUnpayable,
  depositUnpayableWarning,
} from "~/lib/booking/deposit";
import type { PaymentMethod } from "~/lib/payments/model";
import type { Author } from "../content/content-store.server";
import { db } from "../db/client.server";
import { contentRevisions, sessionTypes, sessionTypeStudios } from "../db/schema";

/*
 * The owner's session types (decision 0116): saved with a revision in `content_revisions` under
 * `session-type:{id}` like the site's other content, restored from one, archived. The private link's
 * secret is never in a revision: restoring a version keeps the link the owner has handed out.
 */

export const sessionTypeSubject = (id: string) => `session-type:${id}` as const;

export type SessionTypeRow = typeof sessionTypes.$inferSelect & { studioIds: string[] };

/** A refusal the form shows at a field (an address already taken). */
export class SessionTypeError extends Error {
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.name = "SessionTypeError";
    this.field = field;
  }
}

/** Every session type, archived ones last, each with the studios offering it. */
export async function listSessionTypes(): Promise<SessionTypeRow[]> {
  const [types, links] = await Promise.all([
    db()
      .select()
      .from(sessionTypes)
      .orderBy(
        sql`${sessionTypes.archivedAt} is not null`,
        asc(sessionTypes.position),
        asc(sessionTypes.createdAt),
      ),
    db().select().from(sessionTypeStudios),
  ]);
  return types.map((type) => ({
    ...type,
    studioIds: links.filter((link) => link.sessionTypeId === type.id).map((link) => link.studioId),
  }));
}

export async function findSessionType(id: string): Promise<SessionTypeRow | null> {
  if (!isUuid(id)) return null;
  const [type] = await db().select().from(sessionTypes).where(eq(sessionTypes.id, id));
  if (!type) return null;
  const links = await db()
    .select({ studioId: sessionTypeStudios.studioId })
    .from(sessionTypeStudios)
    .where(eq(sessionTypeStudios.sessionTypeId, id));
  return { ...type, studioIds: links.map((link) => link.studioId) };
}

/** A stored type as the form and its revisions see it. */
export function sessionTypeValue(row: SessionTypeRow): SessionTypeValue {
  const questions = bookingQuestionsSchema.safeParse(row.questions);
  const hours = row.bookableHours ? bookableHoursSchema.safeParse(row.bookableHours) : null;
  return {
    slug: row.slug,
    name: row.name,
    description: row.description,
    photoId: row.photoId,
    durationMinutes: row.durationMinutes,
    bufferBeforeMinutes: row.bufferBeforeMinutes,
    bufferAfterMinutes: row.bufferAfterMinutes,
    studioIds: [...row.studioIds].sort(),
    priceText: row.priceText,
    includedText: row.includedText,
    minimumNoticeHours: row.minimumNoticeHours,
    horizonDays: row.horizonDays,
    stepMinutes: row.stepMinutes,
    mode: row.mode,
    responseDeadlineHours: row.responseDeadlineHours,
    depositText: row.depositText,
    deposit: depositRuleOf(row.deposit),
    visibility: row.visibility,
    questions: questions.success ? questions.data : [],
    bookableHours: hours?.success ? hours.data : null,
    cancellationCutoffHours: row.cancellationCutoffHours,
  };
}

/** The secret of a private link: 24 random bytes, 32 characters of base64url. */
export const newPrivateToken = () => randomBytes(24).toString("base64url");

const isUniqueViolation = (error: unknown) =>
  (error as { cause?: { code?: string } }).cause?.code === "23505" ||
  (error as { code?: string }).code === "23505";

/**
 * Creates (id null) or saves a session type with its revision. A private type gets its link's secret the
 * first time it is private. Returns its id. An address already taken: SessionTypeError at `slug`.
 */
export async function saveSessionType(
  id: string | null,
  value: SessionTypeValue,
  author: Author,
  summary = "",
): Promise<string> {
  const questions = bookingQuestionsSchema.parse(value.questions);
  const columns = {
    slug: value.slug,
    name: value.name,
    description: value.description,
    photoId: value.photoId,
    durationMinutes: value.durationMinutes,
    bufferBeforeMinutes: value.bufferBeforeMinutes,
    bufferAfterMinutes: value.bufferAfterMinutes,
    priceText: value.priceText,
    includedText: value.includedText,
    minimumNoticeHours: value.minimumNoticeHours,
    horizonDays: value.horizonDays,
    stepMinutes: value.stepMinutes,
    mode: value.mode,
    responseDeadlineHours: value.responseDeadlineHours,
    depositText: value.depositText,
    deposit: value.deposit ?? null,
    visibility: value.visibility,
    questions,
    bookableHours: value.bookableHours,
    cancellationCutoffHours: value.cancellationCutoffHours,
    updatedAt: new Date(),
  };
  try {
    return await db().transaction(async (tx) => {
      let typeId = id;
      if (typeId === null) {
        const [created] = await tx
          .insert(sessionTypes)
          .values({
            ...columns,
            privateToken: value.visibility === "private" ? newPrivateToken() : null,
            position: sql`(select coalesce(max(position), -1) + 1 from session_types)`,
          })
          .returning({ id: sessionTypes.id });
        if (!created) throw new Error("session type not created");
        typeId = created.id;
      } else {
        const [current] = await tx
          .select({ privateToken: sessionTypes.privateToken })
          .from(sessionTypes)
          .where(eq(sessionTypes.id, typeId))
          .for("update");
        if (!current) throw new SessionTypeError("form", "Cette séance n'existe plus.");
        await tx
          .update(sessionTypes)
          .set({
            ...columns,
            ...(value.visibility === "private" &&
              !current.privateToken && { privateToken: newPrivateToken() }),
          })
          .where(eq(sessionTypes.id, typeId));
        await tx.delete(sessionTypeStudios).where(eq(sessionTypeStudios.sessionTypeId, typeId));
      }
      const sessionTypeId = typeId;
      if (value.studioIds.length > 0) {
        await tx
          .insert(sessionTypeStudios)
          .values([...new Set(value.studioIds)].map((studioId) => ({ sessionTypeId, studioId })));
      }
      await tx.insert(contentRevisions).values({
        subject: sessionTypeSubject(sessionTypeId),
        data: { ...value, studioIds: [...new Set(value.studioIds)].sort(), questions },
        authorId: author.id || null,
        authorName: author.name,
        summary: summary || (id ? `${value.name} modifiée` : `${value.name} créée`),
      });
      return sessionTypeId;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new SessionTypeError("slug", "Une autre séance a déjà cette adresse : changez-la.");
    }
    throw error;
  }
}

/**
 * Brings a session type back to one of its revisions (a studio since removed is left out). False when
 * the revision is not one of this type's.
 */
export async function restoreSessionType(
  id: string,
  revisionId: string,
  author: Author,
): Promise<boolean> {
  if (!isUuid(id) || !isUuid(revisionId)) return false;
  const [row] = await db()
    .select({ data: contentRevisions.data, createdAt: contentRevisions.createdAt })
    .from(contentRevisions)
    .where(
      and(
        eq(contentRevisions.subject, sessionTypeSubject(id)),
        eq(contentRevisions.id, revisionId),
      ),
    );
  if (!row) return false;
  const value = row.data as SessionTypeValue;
  const studioRows = await db().execute<{ id: string }>(sql`select id from studios`);
  const existing = new Set(studioRows.rows.map((studio) => studio.id));
  await saveSessionType(
    id,
    { ...value, studioIds: value.studioIds.filter((studioId) => existing.has(studioId)) },
    author,
    `Restauration de la version du ${formatLongDateTimeFr(row.createdAt)}`,
  );
  return true;
}

/** Takes a type off the booking pages (its bookings keep it) or brings it back. */
export async function setSessionTypeArchived(id: string, archived: boolean): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db()
    .update(sessionTypes)
    .set({ archivedAt: archived ? new Date() : null, updatedAt: new Date() })
    .where(eq(sessionTypes.id, id))
    .returning({ id: sessionTypes.id });
  return rows.length > 0;
}

/** A new secret for a private type's link: the old link stops working. */
export async function renewPrivateToken(id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db()
    .update(sessionTypes)
    .set({ privateToken: newPrivateToken(), updatedAt: new Date() })
    .where(eq(sessionTypes.id, id))
    .returning({ id: sessionTypes.id });
  return rows.length > 0;
}

/**
 * The owner's warnings of the types still offered whose deposit no way of paying she takes now (`accepted`)
 * can pay (decision 0186, amended 2026-12-02): they no longer book online, their page says to call.
 */
export async function unpayableDepositWarnings(
  accepted: readonly PaymentMethod[],
): Promise<string[]> {
  const rows = await db()
    .select({ name: sessionTypes.name, deposit: sessionTypes.deposit })
    .from(sessionTypes)
    .where(and(isNull(sessionTypes.archivedAt), isNotNull(sessionTypes.deposit)))
    .orderBy(asc(sessionTypes.name));
  return rows.flatMap((row) => {
    const rule = askedDepositOf(row.deposit);
    return rule && depositUnpayable(rule, accepted)
      ? [depositUnpayableWarning(row.name, rule)]
      : [];
  });
}
