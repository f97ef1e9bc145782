/**
 * `/care help` lists what issue 33 added: two-person work (`/care two-staff`, and for admins `/care settings
 * two-staff`), a note on completion (`/care done <no> <note>`) and who's on now (`/care oncall`).
 */
import { describe, expect, it } from 'vitest';
import { helpBlocks } from '../../src/slack/views/help.js';

/** The help as a person reads it: each section's text, the `&lt;`/`&gt;` Slack shows as `<`/`>`. */
const read = (isAdmin: boolean) =>
  helpBlocks({ linked: true, isAdmin, setUp: 'self-service' })
    .map((b) => (b as { text?: { text?: string } }).text?.text ?? '')
    .join('\n')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

describe('/care help (issue 33 commands)', () => {
  it('shows everyone how to mark an action as needing two staff, complete with a note and see who is on now', () => {
    const text = read(false);
    expect(text).toContain('`/care two-staff <action no> on|off` — mark an action as needing two staff');
    expect(text).toContain('`/care done <action no> <note>` completes it with a note');
    expect(text).toContain('`/care oncall` — who’s on now');
  });

  it('shows admins, and only admins, which care system tags mean two staff', () => {
    expect(read(true)).toContain('`/care settings two-staff <tag Ids>|off` — the care system’s action tags that mean an action needs two staff');
    expect(read(false)).not.toContain('/care settings two-staff');
    // The escalation line names the follow-up of taken work and the repeat of the last step.
    expect(read(true)).toMatch(/\/care escalation after <minutes>\|followup <minutes>\|off.*repeat <minutes> <times>/);
  });
});
