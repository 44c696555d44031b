#!/usr/bin/env node
// The `morph` command: loads the TypeScript CLI through tsx, so a checkout runs without a build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
