export * from "./fields"
export * from "./locks"
export * from "./admin-edits"
export * from "./locked-update"
