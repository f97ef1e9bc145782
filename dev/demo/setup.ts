/**
 * What an admin would have set up before the demo starts: each Slack person
 * linked to the care user with their email, digests for #care-team (public:
 * no task text) and #care-leads (urgent only, with live urgent alerts), one
 * notification group's completions routed to #care-team, and a short guide in
 * everyone's DM with the app.
 */
import type { ComposedApp } from '../../src/compose.js';
import type { Logger } from '../../src/logging/logger.js';
import type { SlackFake } from '../slack-fake/index.js';

export interface DemoSetupOptions {
  app: ComposedApp;
  fake: SlackFake;
  timeZone: string;
  /** The admin who "set up" digests and routes. */
  adminUserId: string;
  digestChannel: string;
  alertsChannel: string;
  /** A notification group whose completions also go to the digest channel. */
  routedGroupName: string;
  logger: Logger;
}

export interface DemoSetup {
  /** Slack user id -> care user id. */
  links: Map<string, string>;
  /** People with no care account of the same email (left unlinked on purpose). */
  unlinked: string[];
  digestChannelId: string;
  alertsChannelId: string;
}

export async function setUpDemo(o: DemoSetupOptions): Promise<DemoSetup> {
  const { app, fake } = o;
  const teamId = fake.teamId;
  const links = new Map<string, string>();
  const unlinked: string[] = [];
  const people = fake.state.users.filter((u) => !u.is_bot && !u.deleted);

  for (const person of people) {
    const email = person.profile.email;
    const careUserId = email ? await careUserByEmail(app, email) : undefined;
    if (!careUserId) {
      unlinked.push(person.id);
      continue;
    }
    await app.store.upsertLink({ teamId, slackUserId: person.id, careUserId, method: 'email', linkedBy: null });
    links.set(person.id, careUserId);
  }

  const digest = fake.channel(o.digestChannel) ?? fail(`no channel ${o.digestChannel}`);
  const alerts = fake.channel(o.alertsChannel) ?? fail(`no channel ${o.alertsChannel}`);
  const common = { teamId, time: '08:00', days: 'daily' as const, timeZone: o.timeZone, postWhenEmpty: true, setUpBy: o.adminUserId };
  await app.store.upsertSubscription({
    ...common,
    channelId: digest.id,
    filters: {},
    showTaskText: false,
    urgentAlerts: false,
    channelPrivate: digest.is_private,
  });
  await app.store.upsertSubscription({
    ...common,
    channelId: alerts.id,
    filters: { urgentOnly: true },
    showTaskText: true,
    urgentAlerts: true,
    channelPrivate: alerts.is_private,
  });

  const groups = await app.care.notificationGroups.collect({ attributes: ['_id', 'name'], per_page: 100, limit: 100 });
  const routed = groups.find((g) => g.name === o.routedGroupName);
  if (routed)
    await app.store.upsertRoute({ teamId, groupId: routed._id, groupName: routed.name ?? o.routedGroupName, channelId: digest.id, setUpBy: o.adminUserId });
  else o.logger.warn('the demo data has no such notification group; no route set', { group: o.routedGroupName });

  for (const person of people) {
    await app.slack.chat.postMessage({ channel: person.id, ...guide(links.has(person.id), digest.id, alerts.id) });
  }
  return { links, unlinked, digestChannelId: digest.id, alertsChannelId: alerts.id };
}

async function careUserByEmail(app: ComposedApp, email: string): Promise<string | undefined> {
  const page = await app.care.users.list({ filters: { q: email }, attributes: ['_id', 'email'], per_page: 10 });
  return page.items.find((u) => u.email?.toLowerCase() === email.toLowerCase())?._id;
}

function guide(linked: boolean, digestChannel: string, alertsChannel: string) {
  const steps = [
    '• Type `/care new Call the GP about Mrs Patel` below and fill in the form. Pick a group under *Notify on completion*.',
    '• Press *Complete* on the card the app posts: the group hears about it.',
    '• `/care mine`, `/care due today` and the *Home* tab list your actions.',
    `• *Simulate* (top right) plays the care system: complete an action in its web app, mark one urgent (alerts go to <#${alertsChannel}>), move the clock to the next digest in <#${digestChannel}>, or 15 minutes on (watch an urgent alert climb its ladder).`,
  ];
  const status = linked
    ? 'Your Slack account is linked to your care account (same email).'
    : 'You have no care account with this email, so the app will ask you to link one: try `/care link`.';
  return {
    text: 'Welcome to the Care Actions demo',
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: 'Welcome to the Care Actions demo' } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `${status}\nEverything here is local: a stand-in Slack, the real app, and a sandbox care system with made-up data.` },
      },
      { type: 'section', text: { type: 'mrkdwn', text: steps.join('\n') } },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: 'Switch person with *Acting as* at the top. Amelia is an admin: she can run `/care digest list`.' }],
      },
    ],
  };
}

function fail(message: string): never {
  throw new Error(`demo setup: ${message}`);
}
