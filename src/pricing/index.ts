// The shop's own pricing: rules, the engine, repricing from stored costs and the safety brake.
// Pure (no Medusa, no HTTP), so the admin bundle imports it too.
export * from "./rules"
export * from "./engine"
export * from "./reprice"
export * from "./brake"
