import type { BookingState } from "./model";

/*
 * A booking and a blocked period as the owner's agenda lists them (decision 0116): what the server's agenda
 * reads (server/booking/agenda.server.ts) and its pieces draw (components/booking-admin/agenda-parts.tsx).
 */

export type BookingLine = {
  id: string;
  startsAt: string;
  endsAt: string;
  state: BookingState;
  /** Its deposit was awaited: expired, it reads « Non confirmée : paiement non reçu ». */
  depositAwaited: boolean;
  /** A card payment of its deposit waits for the owner's decision: it reads « paiement reçu, à vérifier ». */
  depositHeld: boolean;
  clientName: string;
  sessionTypeName: string;
  studioName: string;
  photographerName: string;
};

export type BlockedLine = {
  id: string;
  startsAt: string;
  endsAt: string;
  label: string;
  studioName: string | null;
  photographerName: string | null;
};
