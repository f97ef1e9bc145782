import { TZDate } from '@date-fns/tz';
import { differenceInCalendarDays, format, formatDistance } from 'date-fns';

/** What rendering needs to know: names for ids, the reader's time zone, and "now". */
export interface RenderContext {
  userName(id: string): string | undefined;
  channelName(id: string): string | undefined;
  /** IANA zone of the person reading (dates render in it); default UTC. */
  tz?: string;
  now: number;
}

const PATTERNS: Record<string, string> = {
  date_num: 'yyyy-MM-dd',
  date_slash: 'dd/MM/yyyy',
  date: 'MMMM do, yyyy',
  date_short: 'MMM d, yyyy',
  date_long: 'EEEE, MMMM do, yyyy',
  date_long_full: 'MMMM d, yyyy',
  time: 'h:mm a',
  time_secs: 'h:mm:ss a',
};

function relativeDay(at: TZDate, now: TZDate): string | undefined {
  const diff = differenceInCalendarDays(at, now);
  return diff === 0 ? 'today' : diff === -1 ? 'yesterday' : diff === 1 ? 'tomorrow' : undefined;
}

/** `<!date^UNIX^{token} text|fallback>` as Slack shows it to a reader in `ctx.tz`. */
export function renderDate(unixSeconds: number, template: string, ctx: RenderContext): string {
  const tz = ctx.tz ?? 'UTC';
  const at = new TZDate(unixSeconds * 1000, tz);
  const now = new TZDate(ctx.now, tz);
  return template.replace(/\{([a-z_]+)\}/g, (whole, token: string) => {
    const pretty = /^(date|date_short|date_long)_pretty$/.exec(token);
    if (pretty?.[1]) return relativeDay(at, now) ?? format(at, PATTERNS[pretty[1]] as string);
    if (token === 'day_divider_pretty') {
      const rel = relativeDay(at, now);
      if (rel) return rel;
      return format(at, at.getFullYear() === now.getFullYear() ? 'EEEE, MMMM do' : (PATTERNS.date_long as string));
    }
    if (token === 'ago') return formatDistance(at, now, { addSuffix: true });
    const pattern = PATTERNS[token];
    return pattern ? format(at, pattern) : whole;
  });
}

/** Renders Slack's `<...>` tokens (mentions, links, dates) and drops mrkdwn markers. */
export function renderMrkdwn(text: string, ctx: RenderContext, plain = false): string {
  if (plain) return decodeEntities(text);
  let out = text.replace(/<([^<>]+)>/g, (_whole, inner: string) => {
    const [target = '', label] = inner.split('|', 2) as [string, string | undefined];
    if (target.startsWith('@')) return `@${label ?? ctx.userName(target.slice(1)) ?? target.slice(1)}`;
    if (target.startsWith('#')) return `#${label ?? ctx.channelName(target.slice(1)) ?? target.slice(1)}`;
    if (target.startsWith('!date^')) {
      const [, ts, template] = target.split('^');
      const seconds = Number(ts);
      return Number.isFinite(seconds) && template ? renderDate(seconds, template, ctx) : (label ?? '');
    }
    if (target.startsWith('!subteam^')) return label ?? '@group';
    if (target.startsWith('!')) return `@${target.slice(1)}`;
    return label ?? target.replace(/^mailto:/, '');
  });
  out = out
    .replace(/```([\s\S]*?)```/g, '$1')
    .replace(/`([^`\n]+)`/g, '$1')
    .replace(/(^|[\s(])\*([^*\n]+)\*(?=$|[\s).,!?:;])/g, '$1$2')
    .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s).,!?:;])/g, '$1$2')
    .replace(/(^|[\s(])~([^~\n]+)~(?=$|[\s).,!?:;])/g, '$1$2');
  return decodeEntities(out);
}

function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
