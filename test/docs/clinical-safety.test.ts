import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Hazard, parseHazardLog, parseRating, ratingProblems, type TestRef, testNames } from './hazard-log.js';

/**
 * docs/clinical-safety.md's hazard log (DCB0129) is checked against the real tree: every hazard has its
 * fields, ratings in the matrix's words, at least one control, and every control names tests that exist —
 * the file is there and declares an it/test of exactly that name. A renamed or deleted test fails here.
 */
const ROOT = resolve(__dirname, '../..');
const DOC = 'docs/clinical-safety.md';
const hazards = parseHazardLog(readFileSync(resolve(ROOT, DOC), 'utf8'));

/** What is wrong with one reference (undefined when the test exists). */
function refProblem(ref: TestRef): string | undefined {
  const path = resolve(ROOT, ref.file);
  if (!existsSync(path)) return `${ref.file} does not exist`;
  if (!testNames(readFileSync(path, 'utf8')).includes(ref.name)) return `${ref.file} has no it/test named "${ref.name}"`;
  return undefined;
}

function refProblems(list: Hazard[]): string[] {
  return list.flatMap((h) => h.controls.flatMap((c) => c.tests.map(refProblem).flatMap((p) => (p ? [`${h.id}: ${p}`] : []))));
}

describe('the hazard log in docs/clinical-safety.md', () => {
  it('has at least 12 hazards with unique ids, each saying the hazard, its cause, its effect and its residual gaps', () => {
    expect(hazards.length).toBeGreaterThanOrEqual(12);
    expect(new Set(hazards.map((h) => h.id)).size).toBe(hazards.length);
    const missing = hazards.flatMap((h) =>
      ['Hazard', 'Cause', 'Effect', 'Initial risk', 'Controls', 'Residual gaps', 'Residual risk']
        .filter((f) => !h.fields.has(f) || (f !== 'Controls' && h.fields.get(f)!.trim() === ''))
        .map((f) => `${h.id} has no ${f}`),
    );
    expect(missing).toEqual([]);
  });

  it('covers each harm the issue names', () => {
    const titles = hazards.map((h) => h.title).join('\n');
    const harms = [
      /missed urgent alert/i,
      /false or stale urgent alert/i,
      /wrong person/i,
      /stale card/i,
      /time-zone or clock-change/i,
      /lost notice/i,
      /duplicated notice/i,
      /resident detail in a channel/i,
      /lock-screen/i,
      /failed erasure/i,
      /Slack outage/i,
      /care-API outage or hang/i,
      /handover not accepted/i,
      /escalation to nobody/i,
      /careless click on a shared post/i,
      /evidence altered by a later change/i,
    ];
    expect(harms.filter((harm) => !harm.test(titles)).map(String)).toEqual([]);
  });

  it("rates every hazard before and after its controls in DCB0129's words, each risk the matrix's for its severity and likelihood", () => {
    const problems = hazards.flatMap((h) =>
      (['Initial risk', 'Residual risk'] as const).flatMap((f) => ratingProblems(parseRating(h.fields.get(f))).map((p) => `${h.id} ${f}: ${p}`)),
    );
    expect(problems).toEqual([]);
  });

  it('gives every hazard at least one control, and every control at least one test written as `file › name`', () => {
    expect(hazards.filter((h) => h.controls.length === 0).map((h) => h.id)).toEqual([]);
    const untested = hazards.flatMap((h) => h.controls.filter((c) => c.tests.length === 0).map((c) => `${h.id}: ${c.text.slice(0, 80)}`));
    expect(untested).toEqual([]);
    expect(hazards.flatMap((h) => h.controls.flatMap((c) => c.malformed.map((w) => `${h.id}: ${w}`)))).toEqual([]);
  });

  it('names only tests that exist: each file is in the tree and declares an it/test of exactly that name', () => {
    const refs = hazards.flatMap((h) => h.controls.flatMap((c) => c.tests));
    expect(refs.length).toBeGreaterThanOrEqual(hazards.length);
    expect(refProblems(hazards)).toEqual([]);
  });
});

describe('the check itself', () => {
  const source = [
    "describe('a group', () => {",
    "  it('says \\'hello\\' in a DM', async () => {});",
    '  test("a name with a ’ and a `tick`", () => {});',
    '  it.concurrent(`a plain template`, () => {});',
    "  it.skip('a skipped one', () => {});",
    `  it(\`built $\{with} a value\`, () => {});`,
    "  it.each(rows)('%s per row', () => {});",
    '});',
  ].join('\n');

  it('reads test names in any quotes, inside describe, but not skipped, per-row or built ones', () => {
    expect(testNames(source)).toEqual(["says 'hello' in a DM", 'a name with a ’ and a `tick`', 'a plain template']);
  });

  it('reports a reference to a test name or a file that does not exist, and passes a real one', () => {
    const log = [
      '### H01 · A harm',
      '- **Controls:**',
      '  - a control. Tests:',
      '    `test/docs/clinical-safety.test.ts › names only tests that exist: each file is in the tree and declares an it/test of exactly that name`,',
      '    `test/docs/clinical-safety.test.ts › a test nobody wrote`,',
      '    `test/docs/no-such-file.test.ts › anything`',
      '  - a control with a half reference `test/e2e/handover.test.ts`',
    ].join('\n');
    const parsed = parseHazardLog(log);
    expect(parsed[0]!.controls.map((c) => c.tests.length)).toEqual([3, 0]);
    expect(parsed[0]!.controls[1]!.malformed).toEqual(['`test/e2e/handover.test.ts`']);
    expect(refProblems(parsed)).toEqual([
      'H01: test/docs/clinical-safety.test.ts has no it/test named "a test nobody wrote"',
      'H01: test/docs/no-such-file.test.ts does not exist',
    ]);
  });

  it('refuses a rating outside the matrix or at odds with it', () => {
    expect(ratingProblems(parseRating('severity Major, likelihood Low, risk 3'))).toEqual([]);
    expect(ratingProblems(parseRating('severity Major, likelihood Low, risk 2'))).toEqual(["risk 2 is not the matrix's 3 for Major × Low"]);
    expect(ratingProblems(parseRating('severity Serious, likelihood Rare, risk 6'))).toHaveLength(3);
    expect(ratingProblems(parseRating('risk 3'))).toHaveLength(1);
  });
});
