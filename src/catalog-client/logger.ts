// What the client logs through: any logger with optional debug and warn (Medusa's fits).
export interface CatalogLogger {
  debug?(message: string, fields?: Record<string, unknown>): void
  warn?(message: string, fields?: Record<string, unknown>): void
}
