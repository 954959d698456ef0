#!/usr/bin/env -S node --max-semi-space-size=64
// The installed command. It loads the TypeScript entry through tsx resolved from this package
// (not from the current folder, as `--import tsx` would), so it runs from any folder.
import { register } from 'tsx/esm/api';

register();
await import('./agent-inbox.ts');
