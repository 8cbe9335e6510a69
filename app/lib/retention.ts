/**
 * SPEC §9: personal data is kept 18 months after the person's last activity. Each feature's purge
 * (boot/personal-data-purge.server lists them) counts from its own rows' last activity.
 */
export const RETENTION_MONTHS = 18;
