export * from "./fields"
export * from "./locks"
export * from "./admin-edits"
