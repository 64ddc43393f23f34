// New translation rows in one multi-row insert, as the translation module's createTranslations
// writes them (integration-tests/medusa/translation-rows.spec.ts compares them column by
// column): id `trans_<ULID>`, the locale normalized, the translations as jsonb and
// translated_field_count counted over the fields the module's settings make translatable
// (the module's own getTranslatableFields, read once per call). The caller emits
// translation.created after the insert (src/shop-writer/bulk/translations-in-bulk.ts).
import type { Knex } from "knex"
import type { Connection } from "./connection"
import { normalizeLocale } from "@medusajs/framework/utils"
import { newId } from "./ids"
import { insertRows, json, transactionWithoutFlushWait } from "./sql"

export type NewTranslation = { reference: string; reference_id: string; locale_code: string; translations: Record<string, string> }

/** What the module stores as translated_field_count: the translatable fields with a value. */
export function translatedFieldCount(translations: Record<string, unknown>, fields: string[] | undefined): number {
  if (!translations || !fields?.length) return 0
  return fields.filter((f) => translations[f] != null && translations[f] !== "" && translations[f] !== "null").length
}

/** Inserts the rows in one transaction; returns their ids (for the caller's events). */
export async function insertTranslations(db: Connection, rows: NewTranslation[], translatableFields: Record<string, string[]>): Promise<string[]> {
  if (!rows.length) return []
  const records = rows.map((t) => ({
    id: newId("trans"),
    reference: t.reference,
    reference_id: t.reference_id,
    locale_code: normalizeLocale(t.locale_code),
    translations: json(t.translations),
    translated_field_count: translatedFieldCount(t.translations, translatableFields[t.reference]),
  }))
  await transactionWithoutFlushWait(db, (trx) => insertRows(trx, "translation", records))
  return records.map((r) => r.id)
}
