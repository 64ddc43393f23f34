// Pure settings logic, one concern a file: the plugin options, how the saved row and the
// options combine into the effective settings a run uses, the validation of an admin's
// change, the base-URL rule and the encryption secret's strength. No Medusa, no I/O.
export * from "./language"
export * from "./plugin-options"
export * from "./effective-settings"
export * from "./settings-patch"
export * from "./base-url"
export * from "./secret-strength"
export * from "./published-secrets"
