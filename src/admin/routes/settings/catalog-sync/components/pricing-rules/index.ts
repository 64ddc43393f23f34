export { PricingRulesEditor, type PricingRulesEditorProps } from "./pricing-rules-editor"
export type { BrandOption, CategoryOption } from "./editor-model"
