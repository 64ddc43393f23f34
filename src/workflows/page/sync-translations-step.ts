// The other language's words through Medusa's translation module: product fields, then the
// size option's title and one-size value. Without the module, nothing (metadata holds them).
import { createStep, StepResponse } from "@medusajs/framework/workflows-sdk"
import type { Language } from "../../sync/settings/language"
import type { ShopVocabulary } from "../../sync/shop-vocabulary"
import { timed } from "../steps/profile"
import { settleAll } from "../extras/settle-all"
import { syncProductTranslations } from "../extras"
import { syncSizeOptionTranslations } from "../option-translations"
import type { WrittenProduct } from "./page-types"

export const syncTranslationsStepId = "catalog-sync-sync-translations"

export interface TranslationsInput {
  written: WrittenProduct[]
  translationsEnabled: boolean
  primaryLanguage: Language
  vocabulary: ShopVocabulary | null
}

export const syncTranslationsStep = createStep(syncTranslationsStepId, async (input: TranslationsInput, { container }) => {
  if (!input.written.length) return new StepResponse(undefined)
  const { vocabulary } = input
  // Product rows and option rows reference different records: written side by side.
  await settleAll([
    input.translationsEnabled ? timed(container, "translations.products", () => syncProductTranslations(container, input.written)) : null,
    vocabulary
      ? timed(container, "translations.options", () =>
          syncSizeOptionTranslations(
            container,
            input.written.map((w) => w.productId),
            { primaryLanguage: input.primaryLanguage, vocabulary }
          )
        )
      : null,
  ])
  return new StepResponse(undefined)
})
