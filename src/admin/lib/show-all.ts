// How many rows a long list on the sync page shows before its "Show all N" (pure, so the browser
// specs read the same figure).

/** The rows a collapsed list shows. */
export const COLLAPSED_ROWS = 5
