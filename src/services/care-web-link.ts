import type { ActionView } from './action-model.js';

/**
 * Links to an action in the care system's own web app, from CARE_WEB_URL: a
 * template such as `https://care.example/actions/{id}`, where `{id}` is the
 * action's Id and `{no}` its action number. Pure.
 */

const PLACEHOLDER = /\{(id|no)\}/g;

/** Why a template is not usable, or null when it is (config.ts names the variable). */
export function careWebTemplateProblem(template: string): string | null {
  if (!/\{(id|no)\}/.test(template)) return 'must contain {id} (the action Id) or {no} (the action number)';
  const sample = template.replace(PLACEHOLDER, (_, key: string) => (key === 'id' ? '0123456789abcdef01234567' : '123'));
  if (!URL.canParse(sample)) return 'must be a URL, e.g. https://care.example/actions/{id}';
  const protocol = new URL(sample).protocol;
  if (protocol !== 'https:' && protocol !== 'http:') return 'must be an https:// or http:// URL';
  return null;
}

/** The link for one action, or undefined (no template, or `{no}` asked for and the action has none). */
export function careWebUrl(template: string | undefined, a: Pick<ActionView, 'id' | 'actionNo'>): string | undefined {
  if (!template) return undefined;
  let missing = false;
  const url = template.replace(PLACEHOLDER, (_, key: string) => {
    const value = key === 'id' ? a.id : a.actionNo;
    if (!value) missing = true;
    return encodeURIComponent(value ?? '');
  });
  return missing ? undefined : url;
}

/** The view with its care web link (unchanged when there is no template). */
export function withCareWebLink<V extends ActionView>(template: string | undefined, view: V): V {
  const careUrl = careWebUrl(template, view);
  return careUrl ? { ...view, careUrl } : view;
}

export const withCareWebLinks = <V extends ActionView>(template: string | undefined, views: V[]): V[] => views.map((v) => withCareWebLink(template, v));
