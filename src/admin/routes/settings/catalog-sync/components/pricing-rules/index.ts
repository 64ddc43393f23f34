export { PricingRulesEditor, type PricingRulesEditorProps } from "./pricing-rules-editor"
export type { BrandOption, CategoryOption, PreviewProduct } from "./editor-model"
