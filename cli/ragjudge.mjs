#!/usr/bin/env node
// ragjudge.mjs: the `ragjudge` command (package.json bin). Everything is in main.mjs; this only
// runs it as a process (main.mjs cli).

import { cli } from "./main.mjs";

await cli();
