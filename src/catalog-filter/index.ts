export * from "./category-tree"
export * from "./filter"
export * from "./queries"
