/** The longest search the blog's list reads: the search field's limit, and the loader's cut of `?q=`. */
export const MAX_SEARCH_LENGTH = 100;
