// The reference data a run's pages are mapped with: categories, brands and models
// (run-references.ts: fetched from the catalog only when due), and the shop's category tree the
// pricing rules inherit down, read again whenever the reference data changed.
import type { MedusaContainer } from "@medusajs/framework/types"
import type { ChangeItem } from "../catalog-client/items"
import type { CategoryTree } from "../catalog-filter/category-tree"
import type { ReferenceMaps } from "../workflows/extras"
import { categoryPathIn, loadCatalogCategoryTree } from "./catalog-category-tree"
import type { RunReferences } from "./run-references"

export class RunReferenceData {
  /** The reference data the tree was read with. */
  #treeOfRefs: ReferenceMaps

  private constructor(
    private readonly container: MedusaContainer,
    private readonly references: RunReferences,
    public refs: ReferenceMaps,
    public categoryTree: CategoryTree
  ) {
    this.#treeOfRefs = refs
  }

  /** At the run's start (a full pass always asks the catalog for its lists). */
  static async open(container: MedusaContainer, references: RunReferences, fullPass: boolean): Promise<RunReferenceData> {
    const refs = await references.start(fullPass)
    return new RunReferenceData(container, references, refs, await loadCatalogCategoryTree(container))
  }

  /** Catalog category ids from the root down, in the tree read last (the pricing rules' inheritance). */
  categoryPaths(): (catalogCategoryId: string | null) => string[] {
    return categoryPathIn(this.categoryTree)
  }

  /** Before cards outside the feed are written (a filter change): the reference data they need. */
  async forCards(items: readonly ChangeItem[]): Promise<void> {
    this.refs = await this.references.forPage(items, false)
  }

  /** Before a page is written: the reference data it needs, and the tree read again if that changed. */
  async forPage(items: readonly ChangeItem[], fullPass: boolean): Promise<void> {
    this.refs = await this.references.forPage(items, fullPass)
    if (this.refs !== this.#treeOfRefs) {
      this.#treeOfRefs = this.refs
      this.categoryTree = await loadCatalogCategoryTree(this.container)
    }
  }
}
