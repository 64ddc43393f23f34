#!/usr/bin/env node
// The package's bin and `npm run catalog`: only ever run, never imported (nothing in src/
// imports it; the importable parts are cli/main.ts and cli/run-cli.ts).
import { main } from "./cli/main"

main()
