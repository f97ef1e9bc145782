import { describe, expect, it } from 'vitest';
import { collectViewState, findElement, renderBlocks, renderMrkdwn, renderView, validateViewState, type View } from '../../dev/playground/public/blocks.js';
import { formEntries } from './form-entries.js';

const ctx = {
  users: [
    { id: 'U1', name: 'alice', real_name: 'Alice Admin' },
    { id: 'U2', name: 'bob', real_name: 'Bob Carer' },
  ],
  channels: [
    { id: 'C1', name: 'general', is_private: false },
    { id: 'C2', name: 'leads', is_private: true },
  ],
  timeZone: 'UTC',
  now: Date.UTC(2024, 2, 1, 12, 0),
};

/** What a reader sees: tags removed, entities decoded. */
const textOf = (html: string) =>
  html
    .replace(/<br>/g, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const plain = (text: string) => ({ type: 'plain_text', text });
const md = (text: string) => ({ type: 'mrkdwn', text });
const opt = (text: string, value: string) => ({ text: plain(text), value });

describe('mrkdwn', () => {
  it('formats bold, italic, strike, code, preformatted text and quotes', () => {
    const html = renderMrkdwn('*bold* _it_ ~gone~ `a *b*`\n```x *y*\nz```\n> quoted *q*\nsnake_case_name');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>it</em>');
    expect(html).toContain('<del>gone</del>');
    expect(html).toContain('<code class="mk-code">a *b*</code>');
    expect(html).toContain('<pre class="mk-pre">x *y*<br>z</pre>');
    expect(html).toContain('<blockquote class="mk-quote">quoted <strong>q</strong></blockquote>');
    expect(textOf(html)).toContain('snake_case_name');
    expect(html).not.toContain('<em>case</em>');
  });

  it('renders links, user, channel and special mentions', () => {
    const html = renderMrkdwn(
      '<https://example.org/a?b=1&amp;c=2|the docs> <mailto:x@example.org> <@U1> <@U9|someone> <#C1> <#C7|other> <!channel> <!here>',
      ctx,
    );
    expect(html).toContain('<a class="mk-link" href="https://example.org/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">the docs</a>');
    expect(html).toContain('href="mailto:x@example.org"');
    expect(textOf(html)).toBe('the docs mailto:x@example.org @alice @someone #general #other @channel @here');
    expect(html).toContain('<span class="mk-mention mk-special">@channel</span>');
  });

  it('never makes a link of a script URL and cannot break out of an attribute', () => {
    const html = renderMrkdwn('<javascript:alert(1)|click> <https://x.org/"onmouseover="alert(1)|x>');
    expect(html).not.toContain('href="javascript');
    expect(textOf(html)).toContain('click');
    expect(html).toContain('href="https://x.org/&quot;onmouseover=&quot;alert(1)"');
  });

  it('shows task text the app escaped as inert text: no script tag, no @channel', () => {
    const task = '&lt;script&gt;alert(1)&lt;/script&gt; and &lt;!channel&gt;';
    const html = renderMrkdwn(`*Task:* ${task}`, ctx);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('mk-special');
    expect(textOf(html)).toBe('Task: <script>alert(1)</script> and <!channel>');
  });

  it('keeps unescaped markup inert too', () => {
    const html = renderMrkdwn('<script>alert(1)</script><img src=x onerror=alert(1)> " \' &');
    expect(html).not.toMatch(/<script|<img/i);
    expect(textOf(html)).toBe('<script>alert(1)</script><img src=x onerror=alert(1)> " \' &');
  });

  it('decodes entities exactly once', () => {
    expect(textOf(renderMrkdwn('a &amp;lt; b &lt;b&gt;'))).toBe('a &lt; b <b>');
  });

  it('renders date tokens in the reader zone, with Today/Yesterday, and falls back when it cannot', () => {
    const noon = Date.UTC(2024, 2, 1, 12, 0) / 1000;
    expect(textOf(renderMrkdwn(`<!date^${noon}^{date_short_pretty} at {time}|1 Mar 2024>`, ctx))).toBe('Today at 12:00 PM');
    expect(textOf(renderMrkdwn(`<!date^${noon - 86400}^{date_pretty}|x>`, ctx))).toBe('Yesterday');
    expect(textOf(renderMrkdwn(`<!date^${noon}^{date_num} {date} {date_long}|x>`, ctx))).toBe('2024-03-01 March 1st, 2024 Friday, March 1st, 2024');
    expect(textOf(renderMrkdwn(`<!date^${noon}^{time}|x>`, { ...ctx, timeZone: 'America/New_York' }))).toBe('7:00 AM');
    expect(textOf(renderMrkdwn(`<!date^${noon}^{time}|the fallback>`, { ...ctx, timeZone: 'Mars/Base' }))).toBe('the fallback');
    expect(textOf(renderMrkdwn('<!date^soon^{time}|later>', ctx))).toBe('later');
  });

  it('turns emoji codes into emoji', () => {
    expect(renderMrkdwn(':white_check_mark: done :not_an_emoji:')).toBe('✅ done :not_an_emoji:');
  });
});

describe('blocks', () => {
  it('renders section text, fields and accessory', () => {
    const html = renderBlocks(
      [
        {
          type: 'section',
          block_id: 's1',
          text: md('*Call GP*'),
          fields: [md('*Due*\ntoday'), plain('Room 1')],
          accessory: { type: 'button', action_id: 'done', text: plain('Done'), value: 'a1' },
        },
      ],
      ctx,
    );
    expect(html).toContain('<strong>Call GP</strong>');
    expect(textOf(html)).toContain('Room 1');
    expect(html).toContain('data-kind="button" data-block-id="s1" data-action-id="done" data-value="a1"');
  });

  it('renders header, divider, context and images without reaching the network', () => {
    const html = renderBlocks(
      [
        { type: 'header', text: plain('Morning digest') },
        { type: 'divider' },
        { type: 'context', elements: [md('_3 open_'), { type: 'image', image_url: 'https://cdn.example.org/a.png', alt_text: 'avatar' }] },
        { type: 'image', image_url: 'https://cdn.example.org/b.png', alt_text: 'a chart', title: plain('Chart') },
        { type: 'image', image_url: 'http://127.0.0.1:3100/local.png', alt_text: 'local' },
      ],
      ctx,
    );
    expect(html).toContain('<h3 class="bk-header-text">Morning digest</h3>');
    expect(html).toContain('<hr>');
    expect(html).toContain('<em>3 open</em>');
    expect(html).not.toContain('cdn.example.org');
    expect(html).toContain('aria-label="a chart"');
    expect(textOf(html)).toContain('Chart');
    expect(html).toContain('<img class="bk-accessory-img" src="http://127.0.0.1:3100/local.png" alt="local">');
  });

  it('renders actions: styled buttons, static select, overflow and date picker', () => {
    const html = renderBlocks(
      [
        {
          type: 'actions',
          block_id: 'acts',
          elements: [
            { type: 'button', action_id: 'ok', text: plain('Complete'), style: 'primary', value: 'a1' },
            { type: 'button', action_id: 'del', text: plain('Delete'), style: 'danger', confirm: { title: plain('Sure?'), text: plain('Really') } },
            {
              type: 'static_select',
              action_id: 'pick',
              placeholder: plain('Snooze'),
              options: [opt('1 hour', '1h'), opt('1 day', '1d')],
              initial_option: opt('1 day', '1d'),
            },
            { type: 'overflow', action_id: 'more', options: [opt('Edit', 'edit')] },
            { type: 'datepicker', action_id: 'when', initial_date: '2024-03-05' },
          ],
        },
      ],
      ctx,
    );
    expect(html).toMatch(/class="bk-btn bk-btn-primary"[^>]*data-action-id="ok"[^>]*>Complete</);
    expect(html).toMatch(/class="bk-btn bk-btn-danger"[^>]*data-confirm="Sure\?\n\nReally"[^>]*>Delete</);
    expect(html).toContain('<option value="1d" selected>1 day</option>');
    expect(html).toContain('>Snooze</option>');
    expect(html).toMatch(/<select class="bk-overflow"[^>]*data-kind="overflow"[^>]*>.*<option value="edit">Edit<\/option>/);
    expect(html).toMatch(/<input type="date"[^>]*data-action-id="when"[^>]*value="2024-03-05"/);
  });

  it('renders rich text', () => {
    const html = renderBlocks(
      [
        {
          type: 'rich_text',
          elements: [
            {
              type: 'rich_text_section',
              elements: [
                { type: 'text', text: 'Hi ', style: { bold: true } },
                { type: 'user', user_id: 'U2' },
                { type: 'link', url: 'https://x.org', text: 'x' },
              ],
            },
            { type: 'rich_text_list', style: 'ordered', elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'first <b>' }] }] },
            { type: 'rich_text_quote', elements: [{ type: 'text', text: 'quoted' }] },
            { type: 'rich_text_preformatted', elements: [{ type: 'text', text: 'code' }] },
          ],
        },
      ],
      ctx,
    );
    expect(html).toContain('<strong>Hi </strong>');
    expect(html).toContain('@bob');
    expect(html).toContain('href="https://x.org"');
    expect(html).toContain('<ol class="rt-list"><li>first &lt;b&gt;</li></ol>');
    expect(html).toContain('<blockquote class="mk-quote">quoted</blockquote>');
    expect(html).toContain('<pre class="mk-pre">code</pre>');
  });

  it('shows a visible placeholder for unknown blocks and elements', () => {
    const html = renderBlocks(
      [
        { type: 'xyz' },
        { type: 'actions', elements: [{ type: 'fancy_widget', action_id: 'f' }] },
        { type: 'input', label: plain('Odd'), element: { type: 'rich_text_input', action_id: 'r' } },
      ],
      ctx,
    );
    expect(textOf(html)).toContain('Unsupported block: xyz');
    expect(textOf(html)).toContain('Unsupported element: fancy_widget');
    expect(textOf(html)).toContain('Unsupported element: rich_text_input');
  });

  it('escapes ids and text everywhere', () => {
    const html = renderBlocks(
      [
        {
          type: 'section',
          block_id: '"><script>x</script>',
          text: plain('<b>plain</b>'),
          accessory: { type: 'button', action_id: '"x', text: plain('<i>go</i>'), value: '"><img>' },
        },
        { type: 'header', text: plain('<script>alert(1)</script>') },
      ],
      ctx,
    );
    expect(html).not.toMatch(/<script|<img|<b>|<i>/);
    expect(textOf(html)).toContain('<b>plain</b>');
  });

  it('finds the element a block_id/action_id names', () => {
    const blocks = [
      { type: 'section', block_id: 's', accessory: { type: 'overflow', action_id: 'o', options: [] } },
      { type: 'actions', elements: [{ type: 'button', action_id: 'b' }] },
    ];
    expect(findElement(blocks, 's', 'o')?.type).toBe('overflow');
    expect(findElement(blocks, 'block-1', 'b')?.type).toBe('button');
    expect(findElement(blocks, 's', 'nope')).toBeNull();
  });
});

const due = Math.floor(new Date(2030, 0, 2, 9, 30).getTime() / 1000);
const everyInput: View = {
  id: 'V1',
  type: 'modal',
  title: plain('New action'),
  submit: plain('Create'),
  close: plain('Cancel'),
  blocks: [
    {
      type: 'input',
      block_id: 'title',
      label: plain('Title'),
      hint: plain('No patient details'),
      element: { type: 'plain_text_input', action_id: 't', initial_value: 'Call <GP> & "co"' },
    },
    {
      type: 'input',
      block_id: 'notes',
      optional: true,
      label: plain('Notes'),
      element: { type: 'plain_text_input', action_id: 'n', multiline: true, initial_value: 'line 1\n</textarea><b>2</b>' },
    },
    { type: 'input', block_id: 'date', label: plain('Date'), element: { type: 'datepicker', action_id: 'd', initial_date: '2030-01-02' } },
    {
      type: 'input',
      block_id: 'time',
      label: plain('Time'),
      element: { type: 'timepicker', action_id: 'tm', initial_time: '09:30', timezone: 'Europe/London' },
    },
    { type: 'input', block_id: 'when', label: plain('When'), element: { type: 'datetimepicker', action_id: 'w', initial_date_time: due } },
    { type: 'input', block_id: 'who', label: plain('Assignee'), element: { type: 'users_select', action_id: 'u', initial_user: 'U2' } },
    { type: 'input', block_id: 'whos', label: plain('Watchers'), element: { type: 'multi_users_select', action_id: 'us', initial_users: ['U1', 'U2'] } },
    { type: 'input', block_id: 'where', label: plain('Channel'), element: { type: 'channels_select', action_id: 'c', initial_channel: 'C2' } },
    {
      type: 'input',
      block_id: 'prio',
      label: plain('Priority'),
      element: { type: 'static_select', action_id: 'p', options: [opt('Low', 'low'), opt('High', 'high')], initial_option: opt('High', 'high') },
    },
    {
      type: 'input',
      block_id: 'tags',
      label: plain('Tags'),
      element: {
        type: 'multi_static_select',
        action_id: 'tg',
        option_groups: [{ label: plain('A'), options: [opt('One', '1'), opt('Two', '2')] }],
        initial_options: [opt('Two', '2')],
      },
    },
    {
      type: 'input',
      block_id: 'loc',
      label: plain('Location'),
      element: { type: 'external_select', action_id: 'l', min_query_length: 0, initial_option: opt('Room "1"', 'room-1') },
    },
    {
      type: 'input',
      block_id: 'locs',
      label: plain('More'),
      element: { type: 'multi_external_select', action_id: 'ls', initial_options: [opt('Kitchen', 'kitchen'), opt('Lounge', 'lounge')] },
    },
    {
      type: 'input',
      block_id: 'flags',
      label: plain('Flags'),
      element: { type: 'checkboxes', action_id: 'f', options: [opt('Urgent', 'urgent'), opt('Remind', 'remind')], initial_options: [opt('Remind', 'remind')] },
    },
    {
      type: 'input',
      block_id: 'how',
      label: plain('How'),
      element: { type: 'radio_buttons', action_id: 'r', options: [opt('Phone', 'phone'), opt('Visit', 'visit')], initial_option: opt('Visit', 'visit') },
    },
    { type: 'input', block_id: 'mail', label: plain('Email'), element: { type: 'email_text_input', action_id: 'e', initial_value: 'a@example.org' } },
  ],
};

const expectedInitialState = {
  title: { t: { type: 'plain_text_input', value: 'Call <GP> & "co"' } },
  notes: { n: { type: 'plain_text_input', value: 'line 1\n</textarea><b>2</b>' } },
  date: { d: { type: 'datepicker', selected_date: '2030-01-02' } },
  time: { tm: { type: 'timepicker', selected_time: '09:30', timezone: 'Europe/London' } },
  when: { w: { type: 'datetimepicker', selected_date_time: due } },
  who: { u: { type: 'users_select', selected_user: 'U2' } },
  whos: { us: { type: 'multi_users_select', selected_users: ['U1', 'U2'] } },
  where: { c: { type: 'channels_select', selected_channel: 'C2' } },
  prio: { p: { type: 'static_select', selected_option: opt('High', 'high') } },
  tags: { tg: { type: 'multi_static_select', selected_options: [opt('Two', '2')] } },
  loc: { l: { type: 'external_select', selected_option: opt('Room "1"', 'room-1') } },
  locs: { ls: { type: 'multi_external_select', selected_options: [opt('Kitchen', 'kitchen'), opt('Lounge', 'lounge')] } },
  flags: { f: { type: 'checkboxes', selected_options: [opt('Remind', 'remind')] } },
  how: { r: { type: 'radio_buttons', selected_option: opt('Visit', 'visit') } },
  mail: { e: { type: 'email_text_input', value: 'a@example.org' } },
};

describe('modal views and view.state.values', () => {
  it('renders a modal with title, labels, hints, optional markers, submit and close', () => {
    const html = renderView(everyInput, ctx);
    expect(html).toMatch(/^<form class="bk-view bk-modal" data-surface="modal" data-view-id="V1"/);
    expect(html).toContain('<h2 class="modal-title">New action</h2>');
    expect(html).toContain('>Create</button>');
    expect(html).toContain('>Cancel</button>');
    expect(textOf(html)).toContain('No patient details');
    expect(textOf(html)).toContain('Notes (optional)');
    expect(html).toContain('<option value="U2" selected>Bob Carer</option>');
    expect(html).toContain('<textarea');
    expect(html).not.toContain('<b>2</b>');
  });

  it('round-trips every input type: initial values come back in Slack state shape', () => {
    const entries = formEntries(renderView(everyInput, ctx));
    expect(collectViewState(entries, everyInput)).toEqual(expectedInitialState);
  });

  it('keeps what the user entered across a re-render and submits that', () => {
    const typed = {
      title: { t: ['Visit Mrs B'] },
      prio: { p: ['low'] },
      flags: { f: [] },
      whos: { us: ['U1'] },
      locs: { ls: [JSON.stringify(opt('Office', 'office'))] },
      when: { w: ['2031-05-06T07:08'] },
    };
    const state = collectViewState(formEntries(renderView(everyInput, { ...ctx, values: typed })), everyInput);
    expect(state.title).toEqual({ t: { type: 'plain_text_input', value: 'Visit Mrs B' } });
    expect(state.prio).toEqual({ p: { type: 'static_select', selected_option: opt('Low', 'low') } });
    expect(state.flags).toEqual({ f: { type: 'checkboxes', selected_options: [] } });
    expect(state.whos).toEqual({ us: { type: 'multi_users_select', selected_users: ['U1'] } });
    expect(state.locs).toEqual({ ls: { type: 'multi_external_select', selected_options: [opt('Office', 'office')] } });
    expect(state.when).toEqual({ w: { type: 'datetimepicker', selected_date_time: new Date(2031, 4, 6, 7, 8).getTime() / 1000 } });
    expect(state.date).toEqual(expectedInitialState.date);
  });

  it('reports empty fields as Slack does (null or empty list) and flags required ones', () => {
    const blank: View = {
      ...everyInput,
      blocks: everyInput.blocks.map((b) => ({
        ...b,
        element: {
          ...(b.element as object),
          initial_value: undefined,
          initial_date: undefined,
          initial_time: undefined,
          initial_date_time: undefined,
          initial_user: undefined,
          initial_users: undefined,
          initial_channel: undefined,
          initial_option: undefined,
          initial_options: undefined,
        },
      })),
    };
    const state = collectViewState(formEntries(renderView(blank, ctx)), blank);
    expect(state.title).toEqual({ t: { type: 'plain_text_input', value: null } });
    expect(state.when).toEqual({ w: { type: 'datetimepicker', selected_date_time: null } });
    expect(state.prio).toEqual({ p: { type: 'static_select', selected_option: null } });
    expect(state.loc).toEqual({ l: { type: 'external_select', selected_option: null } });
    expect(state.flags).toEqual({ f: { type: 'checkboxes', selected_options: [] } });
    const errors = validateViewState(blank, state);
    expect(errors.title).toBe('Please complete this required field.');
    expect(errors.notes).toBeUndefined();
    expect(Object.keys(errors)).toHaveLength(everyInput.blocks.length - 1);
  });

  it('checks plain-text lengths before submitting', () => {
    const view: View = {
      id: 'V',
      type: 'modal',
      blocks: [{ type: 'input', block_id: 'b', label: plain('B'), element: { type: 'plain_text_input', action_id: 'a', min_length: 3, max_length: 5 } }],
    };
    expect(validateViewState(view, collectViewState([['["b","a"]', 'ab']], view))).toEqual({ b: 'Please enter at least 3 characters.' });
    expect(validateViewState(view, collectViewState([['["b","a"]', 'abcdef']], view))).toEqual({ b: 'Please enter at most 5 characters.' });
    expect(validateViewState(view, collectViewState({ b: { a: ['abcd'] } }, view))).toEqual({});
  });

  it('shows inline errors under the failing fields', () => {
    const html = renderView({ ...everyInput, errors: { title: 'Title is taken <really>' } }, ctx);
    expect(html).toMatch(/data-block-id="title">.*<div class="bk-error" role="alert">Title is taken &lt;really&gt;<\/div>/);
    expect(renderView(everyInput, { ...ctx, errors: { prio: 'Pick one' } })).toContain('Pick one');
  });

  it('marks an input block with dispatch_action, so the page sends its choices as Slack does', () => {
    const when = {
      type: 'input',
      block_id: 'reminder_0_when',
      dispatch_action: true,
      label: plain('Reminder 1: when'),
      element: { type: 'static_select', action_id: 'value', options: [{ text: plain('At a time of day'), value: 'time' }] },
    };
    const html = renderView({ id: 'V3', type: 'modal', title: plain('Form'), blocks: [when, { ...when, block_id: 'quiet', dispatch_action: undefined }] }, ctx);
    expect(html).toContain('data-block-id="reminder_0_when" data-dispatch-action="1"');
    expect(html).not.toContain('data-block-id="quiet" data-dispatch-action');
  });

  it('renders a banner, a view without submit, and a Home tab', () => {
    const info = renderView(
      { id: 'V2', type: 'modal', title: plain('Info'), general_error: 'The app did not answer', blocks: [{ type: 'section', text: md('Hi') }] },
      ctx,
    );
    expect(info).toContain('The app did not answer');
    expect(info).not.toContain('type="submit"');
    expect(info).toContain('>Close</button>');
    const home = renderView(
      { id: 'VH', type: 'home', blocks: [{ type: 'actions', block_id: 'h', elements: [{ type: 'button', action_id: 'new', text: plain('New action') }] }] },
      ctx,
    );
    expect(home).toMatch(/^<div class="bk-view bk-home" data-surface="home" data-view-id="VH">/);
    expect(home).toContain('>New action</button>');
  });
});
