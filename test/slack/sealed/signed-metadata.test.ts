import { describe, expect, it } from 'vitest';
import { createSignedMetadata, metadataKey, PRIVATE_METADATA_MAX } from '../../../src/slack/sealed/signed-metadata.js';

const FORM = 'care_action_modal';
const SOPHIE = { teamId: 'T0CARE', userId: 'U0SOPHIE', form: FORM };
const META = { mode: 'create', tz: 'Europe/London', channelId: 'C0CARE', threadTs: '1773136800.000100' };

function clockAt(iso: string) {
  let t = new Date(iso).getTime();
  return { now: () => new Date(t), advance: (ms: number) => void (t += ms) };
}

describe('sealed private_metadata', () => {
  const clock = clockAt('2026-03-10T09:00:00Z');
  const sealer = createSignedMetadata({ key: metadataKey('the-signing-secret'), now: clock.now });

  it('gives back what it sealed, for the same person and form', () => {
    const raw = sealer.encode(META, SOPHIE);
    expect(raw.length).toBeLessThanOrEqual(PRIVATE_METADATA_MAX);
    expect(sealer.decode(raw, SOPHIE)).toEqual(META);
  });

  it('refuses it for another person, another team or another form', () => {
    const raw = sealer.encode(META, SOPHIE);
    expect(sealer.decode(raw, { ...SOPHIE, userId: 'U0PRIYA' })).toBeNull();
    expect(sealer.decode(raw, { ...SOPHIE, teamId: 'T0OTHER' })).toBeNull();
    expect(sealer.decode(raw, { ...SOPHIE, form: 'care_link_approve_modal' })).toBeNull();
  });

  it('refuses plain JSON, garbage, and metadata changed after sealing', () => {
    expect(sealer.decode(JSON.stringify(META), SOPHIE)).toBeNull();
    for (const junk of ['', 'v1', 'v1..', 'v1.x.y', 'v2.a.b', 'v1.a.b.c', 'x'.repeat(4000)]) expect(sealer.decode(junk, SOPHIE)).toBeNull();
    expect(sealer.decode(undefined, SOPHIE)).toBeNull();
    const [v, , mac] = sealer.encode(META, SOPHIE).split('.');
    const forged = Buffer.from(JSON.stringify({ m: { ...META, channelId: 'C0LEADS' }, e: 9_999_999_999 })).toString('base64url');
    expect(sealer.decode(`${v}.${forged}.${mac}`, SOPHIE)).toBeNull();
  });

  it('refuses metadata sealed with another key (another signing secret)', () => {
    const other = createSignedMetadata({ key: metadataKey('another-secret'), now: clock.now });
    expect(sealer.decode(other.encode(META, SOPHIE), SOPHIE)).toBeNull();
  });

  it('expires after a day', () => {
    const local = clockAt('2026-03-10T09:00:00Z');
    const s = createSignedMetadata({ key: metadataKey('the-signing-secret'), now: local.now });
    const raw = s.encode(META, SOPHIE);
    local.advance(24 * 3_600_000 - 1000);
    expect(s.decode(raw, SOPHIE)).toEqual(META);
    local.advance(1000);
    expect(s.decode(raw, SOPHIE)).toBeNull();
  });

  it('never writes more than Slack keeps', () => {
    expect(() => sealer.encode({ pad: 'x'.repeat(2500) }, SOPHIE)).toThrow(/3000/);
  });

  it('derives the same 32-byte key from the same signing secret on every instance, and another from another', () => {
    expect(metadataKey('s')).toHaveLength(32);
    expect(metadataKey('s').equals(metadataKey('s'))).toBe(true);
    expect(metadataKey('s').equals(metadataKey('t'))).toBe(false);
  });
});
