/**
 * WCAG 2.2 AA checks in a real browser: axe-core's rules for levels A and AA
 * (2.0, 2.1, 2.2), and what a keyboard-only person notices about focus.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/** Desktop, and a phone held upright (400 px wide). */
export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 400, height: 800 } } as const;

/** A page in a context of its own (axe-core needs one) at this viewport; closing the page closes the context. */
export async function pageAt(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  // The browser may be closing already (the file's afterAll): nothing left to close then.
  page.on('close', () => {
    context.close().catch(() => undefined);
  });
  return page;
}

export interface AxeFinding {
  rule: string;
  nodes: number;
  targets: string[];
}

/** axe-core's WCAG A/AA violations on the page as it is now, one line per rule. */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return result.violations.map((v) => ({ rule: v.id, nodes: v.nodes.length, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
}

/** "rule ×nodes (first targets)" lines, for an assertion's message and the test's log. */
export const describeFindings = (findings: AxeFinding[]): string => findings.map((f) => `${f.rule} ×${f.nodes} (${f.targets.join(', ')})`).join('\n') || 'none';

export interface FocusedElement {
  /** A short name: tag#id.class, or its label. */
  name: string;
  /** Its own outline or box-shadow, or its composer box's ring, is drawn. */
  indicated: boolean;
  /** Its box lies at least partly inside the viewport and is not hidden. */
  onScreen: boolean;
}

/** What has the keyboard focus now, and whether a sighted person can see where it is. */
export function focused(page: Page): Promise<FocusedElement | null> {
  // A string: it runs in the page (this project compiles without the DOM's types).
  return page.evaluate(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const drawn = (e) => {
      const s = getComputedStyle(e);
      const outline = s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0;
      return outline || (s.boxShadow !== 'none' && s.boxShadow !== '');
    };
    const box = el.closest('.composer');
    const r = el.getBoundingClientRect();
    const label = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? '';
    return {
      name: el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' "' + label + '"',
      indicated: drawn(el) || (box !== null && drawn(box)),
      onScreen: r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth,
    };
  })()`);
}

/**
 * Presses Tab until `done` holds for the focused element (at most `max` times), checking at each stop that focus is
 * visible. Returns the stops that were not visibly indicated or were off screen.
 */
export async function tabUntil(page: Page, done: () => Promise<boolean>, max = 80, key = 'Tab'): Promise<{ reached: boolean; unseen: string[] }> {
  const unseen: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const f = await focused(page);
    if (f && (!f.indicated || !f.onScreen)) unseen.push(`${f.name}${f.indicated ? '' : ' (no focus indicator)'}${f.onScreen ? '' : ' (off screen)'}`);
    if (await done()) return { reached: true, unseen };
  }
  return { reached: false, unseen };
}
