import { describe, expect, it } from 'vitest';
import type { ActionView } from '../../src/services/action-model.js';
import { digestContent } from '../../src/services/shift-work/digest-content.js';
import type { OutgoingMessage } from '../../src/services/notices/delivery.js';
import { ActionIds } from '../../src/slack/ids.js';
import { renderDigest } from '../../src/slack/views/digest.js';
import { validateBlocks } from '../../dev/slack-fake/block-kit/validate-blocks.js';
import { LIMITS } from '../../dev/slack-fake/block-kit/limits.js';

// Monday 23 November 2026, 09:00 in London (GMT): today runs to 24 Nov 00:00Z.
const now = new Date('2026-11-23T09:00:00Z');
const tz = 'Europe/London';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Carer = NonNullable<ActionView['assignee']>;
const CARERS: (Carer | null)[] = [
  { slackUserId: 'U0SOPHIE', careUserId: 'c0000000000000000000000a' },
  { slackUserId: 'U0OLIVER', careUserId: 'c0000000000000000000000b' },
  { name: 'Daniel Okafor', careUserId: 'c0000000000000000000000c' },
  null,
  { name: 'Aisha Rahman', careUserId: 'c0000000000000000000000d' },
  { slackUserId: 'U0PRIYA', careUserId: 'c0000000000000000000000e' },
];
/** How each carer shows in a line of the channel message. */
const shown = (c: Carer) => (c.slackUserId ? `<@${c.slackUserId}>` : c.name!);

type Kind = 'stale' | 'overdue' | 'today' | 'urgentLater' | 'later' | 'farLater';
const PATTERN: Kind[] = ['stale', 'overdue', 'overdue', 'today', 'overdue', 'today', 'urgentLater', 'later', 'overdue', 'farLater', 'today', 'stale'];

interface Made {
  id: string;
  kind: Kind;
  carer: Carer | null;
  urgent: boolean;
  due: Date;
}

/** `n` open actions of every kind, assignee and urgency, each due at a different second. */
function make(n: number): { views: ActionView[]; made: Made[] } {
  const made: Made[] = [];
  for (let i = 0; i < n; i++) {
    const kind = PATTERN[i % PATTERN.length]!;
    const carer = CARERS[(i * 5 + Math.floor(i / 7)) % CARERS.length]!;
    const urgent = kind === 'urgentLater' || (kind !== 'later' && i % 9 === 0);
    const offset =
      kind === 'stale'
        ? -(31 * DAY + (i % 90) * DAY)
        : kind === 'overdue'
          ? -(HOUR + (i % 690) * HOUR)
          : kind === 'today'
            ? HOUR + (i % 13) * HOUR
            : kind === 'urgentLater' || kind === 'later'
              ? 2 * DAY + (i % 4) * DAY
              : 20 * DAY;
    made.push({ id: i.toString(16).padStart(24, '0'), kind, carer, urgent, due: new Date(now.getTime() + offset - (i % 3600) * 1000) });
  }
  const views = made.map((m, i) => ({
    id: m.id,
    actionNo: String(i + 1),
    task: `Secret task ${i + 1}`,
    due: m.due,
    urgent: m.urgent,
    completed: null,
    assignee: m.carer,
  }));
  return { views, made };
}

const inScope = (m: Made) => m.kind === 'stale' || m.kind === 'overdue' || m.kind === 'today' || (m.kind === 'urgentLater' && m.urgent);

type Block = { type: string; block_id?: string; text?: { text: string }; elements?: { text: string }[]; accessory?: Record<string, any> };
const blocksOf = (m: OutgoingMessage) => (m.blocks ?? []) as unknown as Block[];
const textOf = (b: Block) => b.text?.text ?? (b.elements ?? []).map((e) => e.text).join(' ');
const rowIds = (m: OutgoingMessage) => blocksOf(m).flatMap((b) => (b.block_id?.startsWith('line_') ? [b.block_id.slice(5)] : []));
const num = (s: string) => Number(s.replace(/,/g, ''));

/** "…and N more" lines and "N older than 30 days" summary rows, as counts. */
function summarised(m: OutgoingMessage): { more: number; stale: { who: string; count: number }[] } {
  let more = 0;
  const stale: { who: string; count: number }[] = [];
  for (const b of blocksOf(m)) {
    const t = textOf(b);
    const and = /…and ([\d,]+) more not listed here/.exec(t);
    if (and) more += num(and[1]!);
    for (const line of t.split('\n')) {
      const s = /^• (?:(.+?): )?\*([\d,]+)\* older than 30 days/.exec(line);
      if (s) stale.push({ who: s[1] ?? 'unassigned', count: num(s[2]!) });
    }
  }
  return { more, stale };
}

function render(n: number, showTask: boolean, rowsPerSection?: number) {
  const { views, made } = make(n);
  const content = digestContent(views, now, tz);
  const r = renderDigest(content, { now, timezone: tz, showTask }, { postWhenEmpty: true, ...(rowsPerSection ? { rowsPerSection } : {}) })!;
  return { made, content, r, all: [r.main, ...r.thread] };
}

function checkLimits(messages: OutgoingMessage[]): void {
  for (const [i, m] of messages.entries()) {
    expect(validateBlocks(m.blocks, 'message', '/blocks'), `message ${i}`).toEqual([]);
    expect(m.text.length).toBeLessThanOrEqual(LIMITS.messageText);
    expect(m.blocks!.length).toBeLessThanOrEqual(LIMITS.blocksPerMessage);
  }
}

describe('the channel digest view', () => {
  it('0 actions: a short "nothing due" when asked to post when empty, else nothing', () => {
    const content = digestContent([], now, tz);
    const r = renderDigest(content, { now, timezone: tz, showTask: false }, { postWhenEmpty: true })!;
    expect(r.main.text).toBe('Nothing due for Monday 23 November');
    expect(JSON.stringify(r.main.blocks)).toContain('Nothing overdue or due today.');
    expect(r.thread).toEqual([]);
    checkLimits([r.main]);
    expect(renderDigest(content, { now, timezone: tz, showTask: false }, { postWhenEmpty: false })).toBeNull();
    // Only actions due later than this week: nothing to say either.
    const later = make(10).views.filter((_, i) => PATTERN[i % PATTERN.length] === 'later' || PATTERN[i % PATTERN.length] === 'farLater');
    expect(later.length).toBeGreaterThan(0);
    expect(renderDigest(digestContent(later, now, tz), { now, timezone: tz, showTask: false }, { postWhenEmpty: false })).toBeNull();
  });

  for (const n of [5, 300, 5000]) {
    for (const showTask of [false, true]) {
      it(`${n} actions, task text ${showTask ? 'shown' : 'hidden'}: inside Block Kit limits, each action once, counts right`, () => {
        const { made, r, all } = render(n, showTask);
        checkLimits(all);
        const scope = made.filter(inScope);

        // Every action in scope once: a row, or counted in a "more" line or a summary row; nothing else.
        const rows = all.flatMap(rowIds);
        expect(new Set(rows).size).toBe(rows.length);
        const sums = all.map(summarised);
        const more = sums.reduce((k, s) => k + s.more, 0);
        const stale = sums.flatMap((s) => s.stale);
        expect(rows.length + more + stale.reduce((k, s) => k + s.count, 0)).toBe(scope.length);
        const byId = new Map(made.map((m) => [m.id, m]));
        for (const id of rows) expect(inScope(byId.get(id)!), id).toBe(true);
        // Stale ones are never rows; one summary row per carer (and one for nobody).
        expect(rows.filter((id) => byId.get(id)!.kind === 'stale')).toEqual([]);
        const staleBy = new Map<string, number>();
        for (const m of scope.filter((x) => x.kind === 'stale')) {
          const who = m.carer ? shown(m.carer) : 'unassigned';
          staleBy.set(who, (staleBy.get(who) ?? 0) + 1);
        }
        expect(new Map(stale.map((s) => [s.who, s.count]))).toEqual(staleBy);
        expect(stale).toHaveLength(staleBy.size);

        // The counts line.
        const main = JSON.stringify(r.main.blocks);
        const overdue = scope.filter((m) => m.kind === 'stale' || m.kind === 'overdue').length;
        const today = scope.filter((m) => m.kind === 'today').length;
        const urgent = scope.filter((m) => m.urgent).length;
        const unassigned = scope.filter((m) => !m.carer).length;
        const c = (k: number) => k.toLocaleString('en-GB');
        expect(main).toContain(`*${c(overdue)}* overdue · *${c(today)}* due today · *${c(urgent)}* urgent · *${c(unassigned)}* unassigned`);

        // A line per carer with their counts, most overdue first.
        const lines = blocksOf(r.main)
          .flatMap((b) => textOf(b).split('\n'))
          .flatMap((l) => {
            const m = /^• (.+?) · \*([\d,]+)\* overdue(?: \(([\d,]+) over 30 days\))? · \*([\d,]+)\* due today$/.exec(l);
            return m ? [{ who: m[1]!, overdue: num(m[2]!), stale: num(m[3] ?? '0'), today: num(m[4]!) }] : [];
          });
        const expected = CARERS.filter((x): x is Carer => x !== null)
          .map((carer) => {
            const mine = scope.filter((m) => m.carer === carer);
            return {
              who: shown(carer),
              overdue: mine.filter((m) => m.kind === 'stale' || m.kind === 'overdue').length,
              stale: mine.filter((m) => m.kind === 'stale').length,
              today: mine.filter((m) => m.kind === 'today').length,
            };
          })
          .filter((x) => x.overdue + x.today > 0);
        expect(lines.sort((a, b) => a.who.localeCompare(b.who))).toEqual(expected.sort((a, b) => a.who.localeCompare(b.who)));
        const order = blocksOf(r.main)
          .flatMap((b) => textOf(b).split('\n'))
          .flatMap((l) => (/^• (.+?) · \*([\d,]+)\* overdue/.exec(l) ? [num(/\*([\d,]+)\* overdue/.exec(l)![1]!)] : []));
        expect(order).toEqual([...order].sort((a, b) => b - a));

        // The top ten: urgent first, then the longest overdue, then due soonest; stale ones never.
        const top = scope
          .filter((m) => m.kind !== 'stale')
          .sort((a, b) => (a.urgent !== b.urgent ? (a.urgent ? -1 : 1) : a.due.getTime() - b.due.getTime()))
          .slice(0, 10);
        expect(rowIds(r.main)).toEqual(top.map((m) => m.id));

        // Buttons: Take it on unassigned rows; View where task text is hidden, else Complete with a confirmation.
        for (const m of all) {
          for (const b of blocksOf(m).filter((x) => x.block_id?.startsWith('line_'))) {
            const a = byId.get(b.block_id!.slice(5))!;
            const button = b.accessory!;
            if (!a.carer) expect([button.action_id, button.text.text, button.value]).toEqual([ActionIds.takeIt, 'Take it', a.id]);
            else if (!showTask) expect([button.action_id, button.text.text, button.value]).toEqual([ActionIds.view, 'View', a.id]);
            else {
              expect([button.action_id, button.text.text, button.value]).toEqual([ActionIds.complete, 'Complete', a.id]);
              expect(button.confirm.title.text).toContain(`#${Number.parseInt(a.id, 16) + 1}`);
            }
          }
          const json = JSON.stringify(m);
          if (!showTask) {
            expect(json).not.toContain('Secret task');
            expect(json).not.toContain(ActionIds.complete);
          }
        }

        // The thread: one message per section (continued when full), in order, each starting with its heading.
        const headings = r.thread.map((m) => textOf(blocksOf(m)[0]!));
        const sections = [':warning: Overdue', ':calendar: Due today', ':rotating_light: Urgent, due this week', ':inbox_tray: Unassigned'];
        let last = -1;
        for (const h of headings) {
          const at = sections.findIndex((s) => h.startsWith(`*${s}*`));
          expect(at, h).toBeGreaterThanOrEqual(0);
          if (h.endsWith('(continued)')) expect(at).toBe(last);
          else expect(at).toBeGreaterThan(last);
          last = at;
        }
        // A row belongs to the section it is in.
        for (const m of r.thread) {
          const kind = sections.findIndex((s) => textOf(blocksOf(m)[0]!).startsWith(`*${s}*`));
          for (const id of rowIds(m)) {
            const a = byId.get(id)!;
            const want = !a.carer ? 3 : a.kind === 'overdue' ? 0 : a.kind === 'today' ? 1 : 2;
            expect(kind, id).toBe(want);
          }
        }
        if (n === 5000) expect(r.thread.length).toBeLessThanOrEqual(10);
      });
    }
  }

  it('5 actions: four in the channel message, and the one overdue by more than 30 days as a summary row in the thread', () => {
    const { r } = render(5, true);
    expect(rowIds(r.main)).toHaveLength(4);
    expect(JSON.stringify(r.main.blocks)).toContain('*Most pressing* (4 of 5)');
    expect(r.thread).toHaveLength(1);
    expect(textOf(blocksOf(r.thread[0]!)[0]!)).toBe('*:warning: Overdue* (1)');
    expect(JSON.stringify(r.thread[0]!.blocks)).toContain('• <@U0SOPHIE>: *1* older than 30 days (1 urgent): /care due overdue <@U0SOPHIE>');
  });

  it('names the ten most overdue carers one per line and counts the others together', () => {
    // 25 carers: carer k has k + 1 overdue actions and one due today.
    const views: ActionView[] = [];
    for (let k = 0; k < 25; k++) {
      for (let j = 0; j <= k + 1; j++) {
        views.push({
          id: (k * 100 + j).toString(16).padStart(24, '0'),
          actionNo: String(k * 100 + j),
          task: null,
          due: new Date(now.getTime() + (j === 0 ? 2 * HOUR : -(j + 1) * HOUR)),
          urgent: false,
          completed: null,
          assignee: { name: `Carer ${String(k).padStart(2, '0')}`, careUserId: `c${k}` },
        });
      }
    }
    const r = renderDigest(digestContent(views, now, tz), { now, timezone: tz, showTask: false }, { postWhenEmpty: true })!;
    const lines = blocksOf(r.main)
      .flatMap((b) => textOf(b).split('\n'))
      .filter((l) => l.startsWith('• '));
    expect(lines.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `• Carer ${24 - i} · *${25 - i}* overdue · *1* due today`));
    // The other 15 (carers 0-14): 1 + 2 + … + 15 overdue, one due today each.
    expect(lines.slice(10)).toEqual(['• …and 15 more carers · *120* overdue · *15* due today between them']);
    checkLimits([r.main, ...r.thread]);
  });

  it('a section longer than one message continues in the next with "(continued)", and one beyond the cap ends with "…and N more"', () => {
    const { r, content } = render(5000, false);
    const overdue = content.sections.find((s) => s.kind === 'overdue')!;
    expect(overdue.actions.length).toBeGreaterThan(90);
    const parts = r.thread.filter((m) => textOf(blocksOf(m)[0]!).startsWith('*:warning: Overdue*'));
    expect(parts.map((m) => textOf(blocksOf(m)[0]!))).toEqual([
      `*:warning: Overdue* (${(overdue.actions.length + overdue.stale.reduce((k, s) => k + s.count, 0)).toLocaleString('en-GB')})`,
      '*:warning: Overdue* (continued)',
    ]);
    expect(parts.flatMap(rowIds)).toEqual(overdue.actions.slice(0, 90).map((a) => a.id));
    expect(JSON.stringify(parts[1]!.blocks)).toContain(
      `…and ${(overdue.actions.length - 90).toLocaleString('en-GB')} more not listed here: each carer’s own list: \`/care due overdue @name\``,
    );
    // With a smaller cap, fewer rows and a larger "more".
    const small = render(300, true, 5);
    for (const m of small.r.thread) expect(rowIds(m).length).toBeLessThanOrEqual(5);
  });
});
