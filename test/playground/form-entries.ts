/**
 * What a browser would submit for a rendered form (the HTML form "entry list"),
 * read from the markup our renderer writes: inputs (checked boxes and radios
 * only), textareas and selects (selected options). Lets the round trip
 * render -> submit -> view.state.values run without a browser.
 */
const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  const inner = tag.replace(/^<\w+/, '').replace(/>$/, '');
  for (const m of inner.matchAll(/([\w-]+)(?:="([^"]*)")?/g)) out[m[1]!] = m[2] === undefined ? '' : decode(m[2]);
  return out;
}

export function formEntries(html: string): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  const re = /<input\b[^>]*>|<textarea\b[^>]*>([\s\S]*?)<\/textarea>|<select\b[^>]*>([\s\S]*?)<\/select>/g;
  for (const m of html.matchAll(re)) {
    const whole = m[0];
    const a = attributes(whole.slice(0, whole.indexOf('>') + 1));
    const name = a.name;
    if (!name || 'disabled' in a) continue;
    if (whole.startsWith('<input')) {
      const type = a.type ?? 'text';
      if ((type === 'checkbox' || type === 'radio') && !('checked' in a)) continue;
      entries.push([name, a.value ?? (type === 'checkbox' || type === 'radio' ? 'on' : '')]);
    } else if (whole.startsWith('<textarea')) {
      entries.push([name, decode(m[1] ?? '')]);
    } else {
      const options = [...(m[2] ?? '').matchAll(/<option\b[^>]*>/g)].map((o) => attributes(o[0]));
      const chosen = options.filter((o) => 'selected' in o);
      if ('multiple' in a) for (const o of chosen) entries.push([name, o.value ?? '']);
      else {
        const one = chosen.at(-1) ?? options.find((o) => !('disabled' in o));
        if (one) entries.push([name, one.value ?? '']);
      }
    }
  }
  return entries;
}
