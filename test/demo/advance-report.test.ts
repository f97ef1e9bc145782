/**
 * "Advance 15 minutes" says what the advance did, whichever run did it. The demo's own scheduler keeps ticking the
 * escalation job on the same clock; when its tick runs the due step between the simulator's clock jump and the
 * simulator's own run, the panel still names the step (it once said "no escalation step was due" while the step
 * had just gone out: the playground's ladder test failed that way on a loaded machine).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningDemo, startDemo } from '../../dev/demo/start-demo.js';

const CARE_LEADS = 'C0LEADS';

describe('the demo’s "Advance 15 minutes" while the scheduler ticks on the same clock', () => {
  let demo: RunningDemo;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'care-demo-advance-'));
    demo = await startDemo({ port: 0, dataDir });
  });
  afterAll(async () => {
    await demo?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('names the step the scheduler’s own tick sent after the jump, and the thread has it once', async () => {
    const offered = await demo.backend.simulate.listSimulatableActions();
    const pick = offered.find((a) => !a.urgent && !a.completed);
    if (!pick?.no) throw new Error('the Simulate menu offers no open, not urgent action');
    expect((await demo.backend.simulate.markActionUrgent(pick.no)).ok).toBe(true);
    const alert = await demo.fake.waitFor(async () =>
      (await demo.backend.snapshot()).messages[CARE_LEADS]?.find((m) => m.text.includes(`Urgent action #${pick.no}`)),
    );

    // The scheduler's tick, as it fires on its own: the moment the clock has jumped, before the simulator's run.
    const jumpedTo = demo.clock.nowMs() + 15 * 60_000;
    const schedulerTick = (async () => {
      while (demo.clock.nowMs() < jumpedTo) await new Promise((r) => setImmediate(r));
      return demo.app.jobs.tick('escalations');
    })();
    const advanced = await demo.backend.simulate.advanceClock15Minutes();
    await schedulerTick;

    expect(advanced.ok).toBe(true);
    expect(advanced.message).toContain(`a reminder in the alert’s thread for #${pick.no}`);
    expect(advanced.message).not.toContain('no escalation step was due');
    const s = await demo.backend.snapshot();
    const reminders = (s.messages[CARE_LEADS] ?? []).filter((m) => m.thread_ts === alert.ts && m.ts !== alert.ts);
    expect(reminders).toHaveLength(1);
  });
});
