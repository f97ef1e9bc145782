import { DEMO_USERS } from '../sandbox/index.js';
import type { Workspace } from '../slack-fake/index.js';
import { BOT_SCOPES } from '../../src/slack/install/oauth-settings.js';

/**
 * A Slack workspace whose people are the sandbox's demo staff (same emails, so
 * links can be made by email), plus one person with no care account.
 */
export function careWorkspace(): Workspace {
  const byName = (first: string) => {
    const u = DEMO_USERS.find((d) => d.first_name === first);
    if (!u) throw new Error(`no demo user ${first}`);
    return u;
  };
  const amelia = byName('Amelia');
  const sophie = byName('Sophie');
  const priya = byName('Priya');
  const oliver = byName('Oliver');
  const bot = 'U0BOT';
  const people = ['U0AMELIA', 'U0SOPHIE', 'U0PRIYA', 'U0OLIVER', 'U0VISITOR'];
  return {
    team: { id: 'T0CARE', name: 'Brightwater Care', domain: 'brightwater' },
    bot: {
      userId: bot,
      botId: 'B0BOT',
      appId: 'A0CAREAPP',
      name: 'care-actions',
      // The scopes manifest.yml asks for (history: to check for an earlier attempt's message before re-sending).
      scopes: [...BOT_SCOPES],
    },
    users: [
      {
        id: 'U0AMELIA',
        name: 'amelia',
        realName: `${amelia.first_name} ${amelia.last_name}`,
        email: amelia.email,
        tz: 'Europe/London',
        isAdmin: true,
        isOwner: true,
      },
      { id: 'U0SOPHIE', name: 'sophie', realName: `${sophie.first_name} ${sophie.last_name}`, email: sophie.email, tz: 'Europe/London' },
      { id: 'U0PRIYA', name: 'priya', realName: `${priya.first_name} ${priya.last_name}`, email: priya.email, tz: 'Europe/London' },
      { id: 'U0OLIVER', name: 'oliver', realName: `${oliver.first_name} ${oliver.last_name}`, email: oliver.email, tz: 'America/New_York' },
      { id: 'U0VISITOR', name: 'visitor', realName: 'Val Visitor', email: 'val@agency.example', tz: 'Europe/London' },
    ],
    channels: [
      { id: 'C0GENERAL', name: 'general', members: [...people, bot], purpose: 'Everyone' },
      { id: 'C0CARE', name: 'care-team', members: [...people, bot], purpose: 'Care actions' },
      { id: 'C0LEADS', name: 'care-leads', isPrivate: true, members: ['U0AMELIA', 'U0PRIYA', bot], purpose: 'Leads' },
      { id: 'C0RANDOM', name: 'random', members: people },
    ],
  };
}
