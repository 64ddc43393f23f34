import Medusa from "@medusajs/js-sdk"

// Where the admin API lives: the dashboard's own origin unless the app sets one.
export const BACKEND_URL: string = (import.meta.env?.VITE_BACKEND_URL as string | undefined) || "/"

// The dashboard's own session: requests from widgets carry the admin's cookie.
export const sdk = new Medusa({
  baseUrl: BACKEND_URL,
  auth: { type: "session" },
})
