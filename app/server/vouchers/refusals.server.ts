/*
 * What a gift voucher's operation says no with (decision 0167): an expected refusal with its French
 * message and the HTTP status a page answers with (never a 5xx).
 */

export type VoucherRefusalCode =
  | "not_found"
  | "not_paid"
  | "withdrawal_period_over"
  | "nothing_to_refund"
  | "already_used"
  | "not_active"
  | "invalid_day"
  | "not_on_sale"
  | "method_not_offered";

/** A voucher operation refused: expected, with its French message (never a 5xx). */
export class VoucherRefusedError extends Error {
  override name = "VoucherRefusedError";
  readonly code: VoucherRefusalCode;
  readonly status: 400 | 404 | 409;
  constructor(code: VoucherRefusalCode, message: string, status: 400 | 404 | 409 = 409) {
    super(message);
    this.code = code;
    this.status = status;
  }
}
