// Example encryption secrets this repository has published (docs, demo defaults, tests). Any
// of them is public and refused as a shop's secret. Hand-kept: the guard test
// (src/sync/__tests__/secret-strength.spec.ts) scans the repository for secret-like literals
// and fails when one appears that is not listed here.
export const PUBLISHED_EXAMPLE_SECRETS: readonly string[] = [
  // The demo's default before it generated its own secret.
  "demo-only-encryption-key-change-me",
]
