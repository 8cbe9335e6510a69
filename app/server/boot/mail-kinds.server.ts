import { enqueueAccountantFiles } from "../accounting/accountant-mail.server";
import { enqueueMonthlyLink } from "../backup/monthly-link.server";
import { enqueueBackupFailed, enqueueBackupMissed } from "../backup/service.server";
import { queueClientMail, queueOwnerMail } from "../booking/emails.server";
import { enqueueContactMail } from "../contact/contact-mail.server";
import {
  enqueueGalleryInvitation,
  enqueueGallerySelection,
  enqueueGallerySelectionReceipt,
} from "../galleries/emails.server";
import { queuePhotoOrderMail } from "../galleries/photo-order-mail.server";
import {
  queuePhotoOrderCalledOffMail,
  queuePhotoOrderDeadlineMail,
} from "../galleries/photo-order-release.server";
import { enqueueAdminMail } from "../admin/mailer.server";
import type { AnyMailKind } from "../mail/outbox.server";
import { enqueueConfirmationMail } from "../newsletter/confirmation-email.server";
import { enqueueNewsletterTest } from "../newsletter/sending.server";
import { queueBuyerPaymentMail, queueOwnerPaymentMail } from "../payments/emails.server";
import {
  queueVoucherDeliveryMail,
  queueVoucherUndeliveredMail,
  queueVoucherOrderMail,
  queueVoucherReminderMail,
  queueVoucherReminderUndeliveredMail,
} from "../vouchers/emails.server";

/**
 * Every kind of e-mail the site sends (decision 0150): each is defined by its feature (defineMailKind) and
 * listed here, so that the mail worker can write any job it is given. A new kind: its feature's module and
 * one line here (the test beside this file checks the list against the sources).
 */
export const MAIL_KINDS: readonly AnyMailKind[] = [
  enqueueAdminMail,
  enqueueBackupFailed,
  enqueueBackupMissed,
  enqueueMonthlyLink,
  queueClientMail,
  queueOwnerMail,
  enqueueConfirmationMail,
  enqueueContactMail,
  enqueueGalleryInvitation,
  enqueueGallerySelection,
  enqueueGallerySelectionReceipt,
  queuePhotoOrderMail,
  queuePhotoOrderCalledOffMail,
  queuePhotoOrderDeadlineMail,
  enqueueNewsletterTest,
  queueBuyerPaymentMail,
  queueOwnerPaymentMail,
  queueVoucherOrderMail,
  queueVoucherDeliveryMail,
  queueVoucherUndeliveredMail,
  queueVoucherReminderMail,
  queueVoucherReminderUndeliveredMail,
  enqueueAccountantFiles,
];
