/** The word the owner types to confirm a restore (/admin/sauvegardes; the action checks it again). */
export const RESTORE_WORD = "RESTAURER";
