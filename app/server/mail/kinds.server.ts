/*
 * Every module that registers a kind of e-mail (mail/outbox.server.ts), loaded by the mail worker
 * (jobs/workers.server.ts) so that it can write any job it is given. A new kind of e-mail is registered in
 * its feature's module and that module is added here; the test of this list checks it against the kinds
 * the features use.
 */
import "../backup/monthly-link.server";
import "../backup/service.server";
import "../booking/emails.server";
import "../contact-mail.server";
import "../galleries/emails.server";
import "../mail.server";
import "../newsletter/confirmation-email.server";
import "../newsletter/sending.server";
