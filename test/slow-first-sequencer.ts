/**
 * The order vitest starts test files in. After a run, vitest knows how long each file took and starts the
 * longest first (its own order, kept). On a fresh checkout (CI's first pass) it knows nothing and starts the
 * largest files first, which put the longest waits of all (the small files that share a scenario: the clock
 * changes, the PostgreSQL store contract) last, and the run waited for them alone. Then the files that wait on
 * real time (servers and Slack's pacing, browsers, PostgreSQL, processes) start first, largest first, and the
 * quick unit files fill the workers around them.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const WAITS_ON_REAL_TIME = /^test\/(e2e|demo|app|tools)\/|postgres|cli\.test\.ts$/;

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const path = (f: TestSpecification) => relative(this.ctx.config.root, f.moduleId).replaceAll('\\', '/');
    if (sorted.every((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${path(f)}`))) return sorted;
    const waits = (f: TestSpecification) => WAITS_ON_REAL_TIME.test(path(f));
    return [...sorted.filter(waits), ...sorted.filter((f) => !waits(f))];
  }
}
