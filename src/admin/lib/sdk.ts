import Medusa from "@medusajs/js-sdk"

// The dashboard's own session: requests from widgets carry the admin's cookie.
export const sdk = new Medusa({
  baseUrl: "/",
  auth: { type: "session" },
})
