import type { Request, RequestHandler, Response } from "express";
import { log } from "../logger.server";
import {
  WebhookVerificationError,
  type PaymentProvider,
  type VerifiedEvent,
} from "../payments/provider.server";
import { discardRestOfBody } from "./refusal.server";

/**
 * Stripe's webhook (decision 0163). Mounted before everything that reads a request (body parsing, cookies,
 * sessions, the form origin check, the route table's methods): Stripe posts JSON from its own servers,
 * without cookies, and the signature covers the exact bytes sent, which nothing may have parsed or
 * rewritten before it is verified. Only a verified event goes on, to the inbox (decision 0162), which
 * answers at once; the event is applied later by a job.
 */

/** Where Stripe posts its events (registered in the owner's account by payments/card.server.ts). */
export { STRIPE_WEBHOOK_PATH } from "../payments/providers/stripe.server";

/** Stripe's events are a few KB; a Checkout Session with many lines stays well under this. */
export const STRIPE_WEBHOOK_MAX_BYTES = 256 * 1024;

export type ReceiveEvent = (event: VerifiedEvent) => Promise<"stored" | "duplicate" | "ignored">;

export type StripeWebhookOptions = {
  /** The configured card provider, or null when card payments are off (the endpoint then is not there). */
  provider: () => PaymentProvider | null | Promise<PaymentProvider | null>;
  /** Stores the event in the inbox (`receiveProviderEvent`): once, whatever Stripe resends. */
  receive: ReceiveEvent;
  maxBytes?: number;
};

class BodyTooLargeError extends Error {}

function readRawBody(req: Request, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = (error: Error) => {
      req.off("data", onData);
      req.off("end", onEnd);
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) stop(new BodyTooLargeError());
      else chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", stop);
  });
}

function answer(req: Request, res: Response, status: number, text: string) {
  // Nothing of a visitor's session belongs on Stripe's answer, whatever ran before.
  res.removeHeader("Set-Cookie");
  res.status(status);
  res.setHeader("Cache-Control", "no-store");
  if (status === 200) res.json({ received: true });
  else res.type("text/plain; charset=utf-8").send(text);
  discardRestOfBody(req);
}

export function stripeWebhook(options: StripeWebhookOptions): RequestHandler {
  const maxBytes = options.maxBytes ?? STRIPE_WEBHOOK_MAX_BYTES;
  return (req, res) => {
    void (async () => {
      const provider = await options.provider();
      if (!provider) return answer(req, res, 404, "Paiement par carte non configuré.");
      if (req.method !== "POST") {
        res.setHeader("Allow", "POST");
        return answer(req, res, 405, "Méthode non autorisée : POST seulement.");
      }
      const tooLarge = () => {
        res.setHeader("Connection", "close");
        answer(req, res, 413, "Événement trop volumineux.");
      };
      if (Number(req.headers["content-length"] ?? 0) > maxBytes) return tooLarge();
      let rawBody: Buffer;
      try {
        rawBody = await readRawBody(req, maxBytes);
      } catch (error) {
        if (error instanceof BodyTooLargeError) return tooLarge();
        // The sender went away: nobody is left to answer.
        return res.destroy();
      }
      let event: VerifiedEvent;
      try {
        const signature = req.headers["stripe-signature"];
        event = provider.verifyWebhook(
          rawBody,
          typeof signature === "string" ? signature : undefined,
        );
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        log.warn("stripe_webhook_refused", { reason: error.message });
        return answer(
          req,
          res,
          400,
          error.malformed ? "Événement Stripe illisible." : "Signature Stripe invalide.",
        );
      }
      let outcome;
      try {
        outcome = await options.receive(event);
      } catch (error) {
        // Stripe sends it again later (for up to three days): the inbox may be back by then.
        log.error("stripe_webhook_not_stored", { eventId: event.eventId, type: event.type, error });
        return answer(req, res, 500, "Événement non enregistré, renvoyez-le plus tard.");
      }
      log.info("stripe_webhook_received", { eventId: event.eventId, type: event.type, outcome });
      answer(req, res, 200, "");
    })().catch((error: unknown) => {
      log.error("stripe_webhook_failed", { error });
      if (!res.headersSent) answer(req, res, 500, "Erreur interne.");
      else res.destroy();
    });
  };
}
