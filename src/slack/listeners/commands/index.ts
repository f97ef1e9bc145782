import type { App } from '@slack/bolt';
import type { Command } from '../../commands/command.js';
import { parseCommand } from '../../commands/parse.js';
import type { CommandContext, CommandHandler, CommandKind, SlackDeps } from '../../deps.js';
import { safeRespond } from '../../respond.js';
import { patientReply, SLOW_TEXT } from '../slow-answer.js';
import { escapeMrkdwn } from '../../text.js';
import { errorBlocks } from '../../views/help.js';
import { answerFailure } from '../error-policy.js';
import { help, link, links, unlink, whoami } from './account.js';
import { doneOrReopen, due, find, mine, newAction, show } from './actions.js';
import { digestHere, digestList, digestNow, digestOff, route, routeOff, routes } from './channel-setup.js';
import { literature, locations } from './directory.js';
import { reassign } from './reassign.js';
import { evidence } from './evidence.js';
import { handoverHere, handoverList, handoverOff } from './handover.js';
import { escalation } from './escalation.js';
import { safeguarding } from './safeguarding.js';
import { twoStaff } from './two-staff.js';
import { personExport, personForget } from './person-data.js';
import { shiftsSet, shiftsShow } from './shifts.js';
import { onCall } from './on-call.js';
import { summaryOff, summarySet, summaryShow } from './summary.js';
import { depsOf, workspaceOf } from '../../workspace-on-context.js';
import { workspace } from './workspace.js';

/**
 * Every `/care` command kind and its handler. Exhaustive: a kind added to the
 * parser that nobody handles does not compile.
 */
const HANDLERS: { [K in CommandKind]: CommandHandler<K> } = {
  help,
  whoami,
  link,
  unlink,
  links,
  new: newAction,
  mine,
  due,
  find,
  show,
  done: doneOrReopen,
  reopen: doneOrReopen,
  locations,
  literature,
  'digest-here': digestHere,
  'digest-off': digestOff,
  'digest-list': digestList,
  'digest-now': digestNow,
  'handover-here': handoverHere,
  'handover-off': handoverOff,
  'handover-list': handoverList,
  route,
  'route-off': routeOff,
  routes,
  'summary-show': summaryShow,
  'summary-set': summarySet,
  'summary-off': summaryOff,
  reassign,
  evidence,
  'shifts-show': shiftsShow,
  'shifts-set': shiftsSet,
  oncall: onCall,
  workspace,
  escalation,
  safeguarding,
  'two-staff': twoStaff,
  'person-export': personExport,
  'person-forget': personForget,
};

function handle(cmd: Command & { kind: CommandKind }, ctx: CommandContext, deps: SlackDeps): Promise<void> {
  // The table's type pairs each kind with its handler; TypeScript cannot follow that through a lookup.
  const handler = HANDLERS[cmd.kind] as CommandHandler<CommandKind>;
  return handler(cmd as never, ctx, deps);
}

/**
 * `/care …`: ack at once, parse, dispatch by kind; any error becomes a sentence for the person.
 * An answer slower than SLOW_AFTER_MS is preceded by a "slow" line (slow-answer.ts).
 */
export function registerCareCommand(app: App): void {
  app.command('/care', async ({ command, ack, respond, context }) => {
    await ack();
    const deps = depsOf(context);
    const answer = patientReply<{ text: string; blocks?: unknown[] }>(
      async (m) => {
        await safeRespond(respond, { response_type: 'ephemeral', ...m }, deps.logger);
      },
      { text: SLOW_TEXT },
    );
    const ctx: CommandContext = {
      teamId: workspaceOf(context),
      userId: command.user_id,
      channelId: command.channel_id,
      triggerId: command.trigger_id,
      reply: answer.reply,
      answeredElsewhere: answer.answeredElsewhere,
    };
    const cmd = parseCommand(command.text ?? '');
    deps.logger.info('slash command', { sub: cmd.kind, user: command.user_id });
    try {
      if (cmd.kind === 'error') {
        // Usage forms (`<words>`) and echoed words are text, not Slack markup.
        const message = escapeMrkdwn(cmd.message);
        await ctx.reply({ text: message, blocks: errorBlocks(message) });
        return;
      }
      await handle(cmd, ctx, deps);
    } catch (err) {
      await answerFailure(deps.logger, ctx.reply, err, { sub: cmd.kind });
    } finally {
      answer.done();
    }
  });
}
