/** The days of the week, Monday first, as schema.org names them (the keys of a studio's opening hours). */
export const DAYS = [
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
  "Sunday",
] as const;
export type DayOfWeek = (typeof DAYS)[number];
