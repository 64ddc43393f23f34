// The shop's two languages. The one Language type of the plugin (settings, card mapping,
// vocabulary and translations all use it); it imports nothing, so anything may import it.
export type Language = "uk" | "ru"
