/** Block Kit the in-memory test double "sends" (a stand-in for the real app's views). */
import type { SlackBlock, SlackOption, SlackView } from './backend.js';

export interface MemoryAction {
  id: string;
  no: number;
  title: string;
  /** Unix seconds. */
  due: number;
  urgent: boolean;
  completed: boolean;
  assignee?: string;
  location?: string;
}

/** Slack's escaping for text the app did not write (so `<script>` or `<!channel>` stay text). */
export const escapeMrkdwn = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });
const mrkdwn = (text: string) => ({ type: 'mrkdwn' as const, text });
const opt = (text: string, value: string): SlackOption => ({ text: plain(text), value });
const due = (a: MemoryAction) => `<!date^${a.due}^{date_short_pretty} at {time}|${new Date(a.due * 1000).toISOString()}>`;

export function actionLine(a: MemoryAction): string {
  const flags = `${a.urgent ? ':rotating_light: ' : ''}${a.completed ? ':white_check_mark: ' : ''}`;
  const who = a.assignee ? ` · <@${a.assignee}>` : '';
  return `${flags}*#${a.no} ${escapeMrkdwn(a.title)}*\nDue ${due(a)}${who}`;
}

export function actionMessageBlocks(a: MemoryAction, completedBy?: string): SlackBlock[] {
  if (a.completed) {
    return [
      { type: 'section', block_id: `action-${a.id}`, text: mrkdwn(actionLine(a)) },
      { type: 'context', block_id: 'done', elements: [mrkdwn(completedBy ? `Completed by <@${completedBy}>` : 'Completed in the care web app')] },
    ];
  }
  return [
    {
      type: 'section',
      block_id: `action-${a.id}`,
      text: mrkdwn(actionLine(a)),
      accessory: { type: 'overflow', action_id: 'action_menu', options: [opt('Snooze 1 hour', `snooze:${a.id}`), opt('Mark urgent', `urgent:${a.id}`)] },
    },
    {
      type: 'actions',
      block_id: 'buttons',
      elements: [
        { type: 'button', action_id: 'complete', text: plain('Complete'), style: 'primary', value: a.id },
        {
          type: 'button',
          action_id: 'delete',
          text: plain('Delete'),
          style: 'danger',
          value: a.id,
          confirm: { title: plain('Delete action?'), text: plain('This cannot be undone.'), confirm: plain('Delete'), deny: plain('Keep') },
        },
        { type: 'datepicker', action_id: 'reschedule', initial_date: new Date(a.due * 1000).toISOString().slice(0, 10) },
      ],
    },
  ];
}

export function newActionModal(id: string, title: string, channelId: string): SlackView {
  return {
    id,
    type: 'modal',
    callback_id: 'new_action',
    title: plain('New action'),
    submit: plain('Create'),
    close: plain('Cancel'),
    private_metadata: JSON.stringify({ channel: channelId }),
    blocks: [
      {
        type: 'input',
        block_id: 'title',
        label: plain('Title'),
        element: { type: 'plain_text_input', action_id: 'title_input', initial_value: title, max_length: 200 },
      },
      {
        type: 'input',
        block_id: 'notes',
        optional: true,
        label: plain('Notes'),
        hint: plain('Never write patient details here.'),
        element: { type: 'plain_text_input', action_id: 'notes_input', multiline: true },
      },
      { type: 'input', block_id: 'due', label: plain('Due'), element: { type: 'datetimepicker', action_id: 'due_input' } },
      { type: 'input', block_id: 'assignee', optional: true, label: plain('Assignee'), element: { type: 'users_select', action_id: 'assignee_input' } },
      {
        type: 'input',
        block_id: 'location',
        optional: true,
        label: plain('Location'),
        element: { type: 'external_select', action_id: 'location_input', min_query_length: 1 },
      },
      {
        type: 'input',
        block_id: 'flags',
        optional: true,
        label: plain('Flags'),
        element: { type: 'checkboxes', action_id: 'flags_input', options: [opt('Urgent', 'urgent'), opt('Remind the assignee', 'remind')] },
      },
    ],
  };
}

export function homeView(id: string, actions: MemoryAction[]): SlackView {
  const open = actions.filter((a) => !a.completed);
  const rows: SlackBlock[] = open.map((a) => ({
    type: 'section',
    block_id: `home-${a.id}`,
    text: mrkdwn(actionLine(a)),
    accessory: { type: 'button', action_id: 'complete', text: plain('Complete'), value: a.id },
  }));
  return {
    id,
    type: 'home',
    blocks: [
      { type: 'header', text: plain('Your care actions') },
      { type: 'actions', block_id: 'home-buttons', elements: [{ type: 'button', action_id: 'open_new_action', text: plain('New action'), style: 'primary' }] },
      { type: 'divider' },
      ...(rows.length ? rows : [{ type: 'section', text: mrkdwn('Nothing open. :tada:') }]),
      { type: 'context', elements: [mrkdwn(`${actions.length - open.length} completed · ${open.length} open`)] },
    ],
  };
}

export function listBlocks(actions: MemoryAction[]): SlackBlock[] {
  const open = actions.filter((a) => !a.completed);
  if (!open.length) return [{ type: 'section', text: mrkdwn('No open actions.') }];
  return open.map((a) => ({
    type: 'section',
    block_id: `list-${a.id}`,
    text: mrkdwn(actionLine(a)),
    accessory: { type: 'button', action_id: 'complete', text: plain('Complete'), value: a.id },
  }));
}

export function digestBlocks(actions: MemoryAction[]): SlackBlock[] {
  const open = actions.filter((a) => !a.completed);
  return [
    { type: 'header', text: plain(':sunrise: Your morning digest') },
    ...open.map((a) => ({ type: 'section', text: mrkdwn(actionLine(a)) })),
    { type: 'context', elements: [mrkdwn(`${open.length} open action${open.length === 1 ? '' : 's'}`)] },
  ];
}

export const LOCATIONS = ['Kitchen', 'Lounge', 'Garden room', 'Room 1', 'Room 2', 'Room 12', 'Office'];
export const locationOption = (name: string) => opt(name, name.toLowerCase().replace(/\s+/g, '-'));
