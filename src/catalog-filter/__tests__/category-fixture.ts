// The category tree both filter specs start from: 1 Shoes ─ 2 Sneakers ─ 3 Kids sneakers; 1 ─ 4 Boots; 10 Bags.
export const SHOE_AND_BAG_CATEGORIES = [
  { id: "1", parent_id: null },
  { id: "2", parent_id: "1" },
  { id: "3", parent_id: "2" },
  { id: "4", parent_id: "1" },
  { id: "10", parent_id: null },
]
