/**
 * The HTML pages a many-workspace deployment serves around "Add to Slack": the install page (/slack/install) and the
 * page after Slack sends the person back (installed, or why not). Pure; they meet WCAG 2.2 AA
 * (test/demo/a11y.test.ts runs axe-core on them): a language, a title, a main landmark, a heading, text with
 * enough contrast, a link named by its text (no remote image), a visible focus ring, and a layout that reflows at
 * 320 px.
 */

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

const STYLE = [
  'body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#1d1c1d;background:#fff;line-height:1.5}',
  'main{max-width:36rem;margin:0 auto;padding:2rem 1rem}',
  'h1{font-size:1.5rem;margin:0 0 1rem}',
  'a{color:#0b4f8a}',
  '.add{display:inline-block;padding:.6rem 1.2rem;border-radius:6px;background:#4a154b;color:#fff;font-weight:700;text-decoration:none}',
  '.add:hover{background:#3a0f3b}',
  'a:focus-visible{outline:3px solid #1264a3;outline-offset:3px}',
].join('');

function htmlDocument(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title><link rel="icon" href="data:,"><style>${STYLE}</style></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`
  );
}

/** /slack/install: what the app is, and the "Add to Slack" link (Slack's authorize page, with the state). */
export function installPageHtml(addToSlackUrl: string): string {
  return htmlDocument(
    'Install Care Actions',
    `<p>Care Actions brings your care system's actions into Slack. You choose the workspace on Slack's next page; ` +
      `an admin then connects the care system from the app's Home tab.</p>` +
      `<p><a class="add" href="${escapeHtml(addToSlackUrl)}">Add to Slack</a></p>`,
  );
}

/** After Slack's redirect: a heading and one paragraph (installed, or why not and what to try). */
export function resultPageHtml(title: string, text: string): string {
  return htmlDocument(title, `<p>${escapeHtml(text)}</p>`);
}
