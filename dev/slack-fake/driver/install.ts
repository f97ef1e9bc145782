import type { SlackFake } from '../start-fake.js';

/** The app's last answer in an install: what the browser shows after the redirect back. */
export interface InstallResult {
  status: number;
  body: string;
  headers: Headers;
  /** Each step the browser took: URL and status. */
  steps: { url: string; status: number }[];
}

/** A browser's cookies for one origin-less test run: name -> value (a cookie set to expire is dropped). */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq < 0) continue;
      const name = pair.slice(0, eq).trim();
      const expired = attrs.some((a) => {
        const [k, v] = a.split('=');
        const key = k?.trim().toLowerCase();
        return (key === 'expires' && v !== undefined && Date.parse(v.trim()) < Date.now()) || (key === 'max-age' && Number(v) <= 0);
      });
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(eq + 1).trim());
    }
  }

  header(): Record<string, string> {
    return this.cookies.size === 0 ? {} : { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }
}

const decodeHtml = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

/** The Slack authorize URL an install page links to (a redirect to it, or an "Add to Slack" link in the HTML). */
function authorizeLink(res: Response, body: string, base: string): URL | undefined {
  const location = res.headers.get('location');
  if (location?.includes('/oauth/v2/authorize')) return new URL(location, base);
  const href = /href\s*=\s*["']([^"']*\/oauth\/v2\/authorize[^"']*)["']/i.exec(body)?.[1];
  return href ? new URL(decodeHtml(href), base) : undefined;
}

/**
 * A person of `teamId` installs the app the way a browser does: opens the app's install page, follows its
 * "Add to Slack" link to Slack's authorize page (this fake's, whatever host the link names), clicks Allow
 * (or Cancel with `deny`), and is sent back to the app's redirect URL with the code and state; cookies
 * are carried between the app's pages (Bolt checks its state cookie). Returns the app's final answer.
 */
export async function installApp(fake: SlackFake, teamId: string, userRef: string, options: { installUrl: string; deny?: boolean }): Promise<InstallResult> {
  const user = fake.workspace(teamId).store.requireUser(userRef);
  const jar = new CookieJar();
  const steps: InstallResult['steps'] = [];
  const get = async (url: string, cookies: boolean) => {
    const res = await fetch(url, { redirect: 'manual', headers: cookies ? jar.header() : {} });
    if (cookies) jar.take(res);
    steps.push({ url, status: res.status });
    return { res, body: await res.text() };
  };
  const page = await get(options.installUrl, true);
  const link = authorizeLink(page.res, page.body, options.installUrl);
  if (!link) throw new Error(`Slack driver: the install page (${page.res.status}) links to no /oauth/v2/authorize URL`);
  const authorize = new URL(fake.authorizeUrl);
  for (const [k, v] of link.searchParams) authorize.searchParams.set(k, v);
  authorize.searchParams.set('team', teamId);
  authorize.searchParams.set('user', user.id);
  if (options.deny) authorize.searchParams.set('deny', '1');
  const allowed = await get(authorize.toString(), false);
  const back = allowed.res.headers.get('location');
  if (allowed.res.status !== 302 || !back) throw new Error(`Slack driver: Slack's authorize page answered ${allowed.res.status} ${allowed.body}`);
  const final = await get(new URL(back, options.installUrl).toString(), true);
  return { status: final.res.status, body: final.body, headers: final.res.headers, steps };
}
