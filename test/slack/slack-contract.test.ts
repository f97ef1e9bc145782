import { describe, expect, it } from 'vitest';
import { LIMITS as FAKE } from '../../dev/slack-fake/block-kit/limits.js';
import { cut } from '../../src/slack/cut.js';
import { SLACK_LIMITS as L } from '../../src/slack/limits.js';
import { plain, taskText, truncate, userText } from '../../src/slack/text.js';
import { renderAll, variants } from '../helpers/hostile-views.js';
import { contractProblems, mrkdwnProblems } from '../helpers/slack-contract.js';

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Found by this check and left for its own change (views are being edited for other features): the admins'
 * Team section writes `<person>` in mrkdwn, which Slack reads as a link, not as text (team-section.ts).
 */
const KNOWN: RegExp[] = [];

describe("Slack's contract, checked offline on every view builder", () => {
  it.each(variants().map((v) => [v.label, v]))(
    'every message, modal and Home tab keeps to Slack’s limits on hostile text (5,000 characters, names with < & * >): %s',
    (_label, v) => {
      const all = renderAll(v);
      expect(all.length).toBeGreaterThan(45);
      const problems = all.flatMap((r) => contractProblems(r.payload).map((p) => `${r.name} [${v.label}] ${p}`));
      // Listed, so a failure names each builder, fixture and JSON pointer.
      expect(problems.filter((p) => !KNOWN.some((k) => k.test(p))).slice(0, 30)).toEqual([]);
    },
  );

  it('the fixtures really reach the cuts: a card’s 5,000 emoji of task text is cut at its limit, whole emoji and an ellipsis', () => {
    for (const v of variants().slice(0, 2)) {
      const card = renderAll(v).find((r) => r.name === 'actionCard')!.payload as { blocks: { text?: { text: string } }[] };
      const text = card.blocks.map((b) => b.text?.text ?? '').find((t) => t.includes('😀'))!;
      expect(text.length).toBeGreaterThan(2000);
      expect(text.length).toBeLessThanOrEqual(L.sectionText);
      expect(text).toMatch(/😀…/);
      expect(LONE.test(text)).toBe(false);
    }
  });

  it("the Slack fake enforces the same numbers as the project's table", () => {
    expect({
      blocksPerMessage: FAKE.blocksPerMessage,
      blocksPerView: FAKE.blocksPerView,
      sectionText: FAKE.sectionText,
      sectionFields: FAKE.sectionFields,
      sectionFieldText: FAKE.sectionFieldText,
      headerText: FAKE.headerText,
      buttonText: FAKE.buttonText,
      value: FAKE.value,
      actionId: FAKE.actionId,
      blockId: FAKE.blockId,
      optionText: FAKE.optionText,
      optionValue: FAKE.optionValue,
      selectOptions: FAKE.selectOptions,
      viewTitle: FAKE.viewTitle,
      viewButton: FAKE.viewButton,
      contextElements: FAKE.contextElements,
      messageText: FAKE.messageText,
    }).toEqual({
      blocksPerMessage: L.messageBlocks,
      blocksPerView: L.viewBlocks,
      sectionText: L.sectionText,
      sectionFields: L.sectionFields,
      sectionFieldText: L.sectionFieldText,
      headerText: L.headerText,
      buttonText: L.buttonText,
      value: L.buttonValue,
      actionId: L.actionId,
      blockId: L.blockId,
      optionText: L.optionText,
      optionValue: L.optionValue,
      selectOptions: L.selectOptions,
      viewTitle: L.modalTitle,
      viewButton: L.modalSubmit,
      contextElements: L.contextElements,
      messageText: L.messageText,
    });
  });
});

describe('the one text cutter', () => {
  it('never splits an emoji, a skin tone, a family or a flag, at any limit', () => {
    const text = '😀👩🏽‍🦱🇬🇧é'.repeat(20);
    for (let max = 0; max <= text.length; max++) {
      const out = cut(text, max);
      expect(out.length).toBeLessThanOrEqual(max);
      expect(LONE.test(out)).toBe(false);
      const kept = out.replace(/…$/, '');
      expect(text.startsWith(kept)).toBe(true);
      // Whole graphemes only: what is kept ends where a grapheme of the text ends.
      const ends = new Set([0, ...[...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].map((s) => s.index + s.segment.length)]);
      expect(ends.has(kept.length)).toBe(true);
    }
  });

  it('keeps a mrkdwn entity whole or drops it, at any limit', () => {
    const text = 'Ask <@U0SOPHIE> &amp; <!date^1700000000^{date_short_pretty}|today> about <https://care.example/a|the plan> &lt;now&gt;';
    for (let max = 0; max <= text.length + 1; max++) {
      const out = cut(text, max);
      expect(out.length).toBeLessThanOrEqual(max);
      expect(mrkdwnProblems(out)).toEqual([]);
    }
  });

  it('plain text cuts < and & as characters, and a lone surrogate from elsewhere becomes U+FFFD', () => {
    expect(plain('a <b> & c', 5)).toBe('a <b…');
    expect(truncate('ok \uD83D', 10)).toBe('ok \uFFFD');
    expect(userText('Ann & Bo 😀😀', 11)).toBe('Ann &amp; …');
    expect(taskText('😀'.repeat(10), 6)).toBe('😀😀…');
  });
});
