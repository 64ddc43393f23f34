// The catalog's category tree, built from `parent_id` (spec 2.6), and subtree membership.
// Ids are decimal strings (64-bit; never JS numbers). A damaged tree (a cycle, an unknown
// parent) never loops: walking up stops at a repeated or unknown id.

/** category id → parent id (null at a root). */
export type CategoryTree = ReadonlyMap<string, string | null>

export function buildCategoryTree(categories: Iterable<{ id: string; parent_id?: string | null }>): CategoryTree {
  const tree = new Map<string, string | null>()
  for (const c of categories) tree.set(c.id, c.parent_id ?? null)
  return tree
}

/** The category and its ancestors, nearest first. */
export function ancestorsOf(categoryId: string, tree: CategoryTree): string[] {
  const seen: string[] = []
  let current: string | null | undefined = categoryId
  while (current != null && !seen.includes(current)) {
    seen.push(current)
    current = tree.get(current)
  }
  return seen
}

/** Whether the category is one of the roots or lies below one of them. */
export function inAnySubtree(categoryId: string, roots: ReadonlySet<string> | readonly string[], tree: CategoryTree): boolean {
  const set = roots instanceof Set ? roots : new Set(roots as readonly string[])
  if (set.size === 0) return false
  return ancestorsOf(categoryId, tree).some((id) => set.has(id))
}

/** Every category of the roots' subtrees (roots included), in a stable order. */
export function subtreeIds(roots: readonly string[], tree: CategoryTree): string[] {
  const rootSet = new Set(roots)
  const out = new Set<string>(roots)
  for (const id of tree.keys()) if (inAnySubtree(id, rootSet, tree)) out.add(id)
  return [...out].sort(compareIds)
}

/** Numeric order of decimal id strings without converting them to numbers. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0)
}
