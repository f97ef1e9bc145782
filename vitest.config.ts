import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/slow-first-sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // A worker runs file after file without starting afresh: each file's imports (Bolt, pg, the app) are loaded
    // once per worker instead of once per file. Files leave nothing behind (a file that moves the process's zone
    // puts it back), so none depends on the files before it.
    isolate: false,
    // Two cores on CI: most files wait on real time (servers, Slack's pacing; a quiet full run used 115% of one
    // core at four), so five at once keep both busy and the servers responsive (3 → 4: the suite 538 s → 376 s,
    // load 8–14). Six on a machine already saturated by other work (load 30): 27 e2e files 507 s → 419 s, but each
    // file 21% slower and twice the timing failures; see docs/testing.md.
    maxWorkers: 5,
    reporters: ['default'],
    sequence: { sequencer: SlowFirstSequencer },
  },
});
