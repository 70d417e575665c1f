#!/usr/bin/env node
import { enableCompileCache } from 'node:module';

// Node's compile cache (in the system's temporary folder; NODE_DISABLE_COMPILE_CACHE=1 turns it
// off): each command after the first starts without compiling the CLI's code again. Enabled
// before the rest is imported, which is what it then caches.
enableCompileCache();
const { runCli } = await import('./program.js');
process.exitCode = await runCli(process.argv);
