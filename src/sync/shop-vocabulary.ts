// Pure: the words the shop shows around sizes, in the shop's languages. The option every
// catalog product gets ("Розмір") and the value of the single variant of a card without
// sizes ("Один розмір") are written in the primary language; the other language is kept as
// a translation. Plugin options may replace any of them (`labels`).
import type { Language } from "./settings/language"

export interface SizeLabels {
  /** Title of the size option. */
  option: string
  /** Option value (and variant title) of a card without sizes. */
  oneSize: string
}

export type ShopVocabulary = Record<Language, SizeLabels>

export const DEFAULT_VOCABULARY: ShopVocabulary = {
  uk: { option: "Розмір", oneSize: "Один розмір" },
  ru: { option: "Размер", oneSize: "Один размер" },
}

/** Plugin option `labels`: per language, any of the two words. */
export type LabelOptions = Partial<Record<Language, Partial<SizeLabels>>>

function clean(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, 100) : null
}

export function resolveVocabulary(options: LabelOptions | undefined | null): ShopVocabulary {
  const out = { uk: { ...DEFAULT_VOCABULARY.uk }, ru: { ...DEFAULT_VOCABULARY.ru } }
  for (const language of ["uk", "ru"] as const) {
    const given = options?.[language]
    if (!given) continue
    out[language].option = clean(given.option) ?? out[language].option
    out[language].oneSize = clean(given.oneSize) ?? out[language].oneSize
  }
  return out
}
