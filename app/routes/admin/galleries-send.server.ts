import { eq } from "drizzle-orm";
import { isUuid } from "~/lib/forms";
import { db } from "~/server/db/client.server";
import { galleries } from "~/server/db/schema";
import { enqueueMail } from "~/server/mail/outbox.server";

/**
 * Queues the gallery's invitation and notes when the owner asked, in one transaction: the e-mail leaves
 * later (the mail queue, or once SMTP is configured), and the page shown after the send must already say
 * that it was sent and to whom, not « pas encore envoyé » until the queue gets to it. `token` is the form's
 * own id: the same form posted twice queues one e-mail (false then, and nothing changes).
 */
export async function requestInvitation(galleryId: string, token: unknown): Promise<boolean> {
  return db().transaction(async (tx) => {
    const queued = await enqueueMail(
      { kind: "gallery-invitation", galleryId },
      isUuid(token) ? { tx, once: `gallery-invitation:${galleryId}:${token}` } : { tx },
    );
    if (queued === null) return false;
    await tx
      .update(galleries)
      .set({ invitationRequestedAt: new Date() })
      .where(eq(galleries.id, galleryId));
    return true;
  });
}
