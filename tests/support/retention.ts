/*
 * Rows dated for the personal-data purges' tests (decision 0151): each feature's purge keeps what is younger
 * than its retention and deletes what is older.
 */

/** The date `months` months before now. */
export function monthsAgo(months: number): Date {
  const date = new Date();
  date.setMonth(date.getMonth() - months);
  return date;
}

/** A contact message as the form stores it, from `email`, sent at `createdAt`. */
export function contactMessageRow(email: string, createdAt: Date, handledAt: Date | null = null) {
  return {
    studio: "ussel",
    shootingType: "naissance",
    prenom: "Anne",
    nom: "Martin",
    email,
    message: "Bonjour",
    createdAt,
    handledAt,
  };
}
