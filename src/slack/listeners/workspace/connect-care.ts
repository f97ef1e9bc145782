/**
 * An admin connects the workspace to its care account (or reconnects, or
 * disconnects it) from the App Home card.
 *
 * The form's submission is acked at once with a "Checking…" view
 * (response_action 'update'), then the check runs and the view is updated
 * with its outcome. The check makes up to six calls to an address the admin
 * just typed, and a wrong address can take the client's whole timeout: far
 * past Slack's 3 s for an ack. The price is that a failed check cannot use
 * inline errors (those exist only in an ack): the form comes back with what
 * to fix above the fields, and what was typed kept, except the secret.
 * Fields that are empty or malformed are still answered inline, in the ack.
 *
 * Nothing is saved unless the credentials work; they are saved even when the
 * key lacks permissions, and the admin is told what will not work.
 */
import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  ButtonAction,
  Context,
  SlackActionMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { types } from '@slack/bolt';
import { z } from 'zod';
import type { Logger } from '../../../logging/logger.js';
import { careAddressChoiceOf } from '../../../services/admin/care-address.js';
import type { CareHostPolicy } from '../../../services/admin/care-hosts.js';
import type { CareAccount, CareConnecting } from '../../../services/admin/care-connecting.js';
import { readConnectCareForm } from '../../forms/connect-care-form.js';
import { ConnectCareIds as Ids } from '../../ids.js';
import { failedModal, openThenFill } from '../modal-flow.js';
import type { SignedMetadata } from '../../sealed/signed-metadata.js';
import { userText } from '../../text.js';
import { workspaceOf } from '../../workspace-on-context.js';
import type { Block } from '../../views/blocks.js';
import {
  type ConnectCareInitial,
  NOT_ADMIN_TEXT,
  checkingModal,
  connectCareModal,
  connectResultBlocks,
  connectResultModal,
  notAdminModal,
} from '../../views/connect-care.js';
import { damagedFormModal } from '../../views/simple-modals.js';
import { failureLine, logFailure, tellingButtonListener } from '../error-policy.js';

export interface ConnectCareDeps {
  /** Checks, saves and forgets the care account, and writes its audit rows (the deployment's set-up: deployment/workspace-setup.ts). */
  setup: CareConnecting;
  isAdmin(teamId: string, userId: string): Promise<boolean>;
  /** The care API hosts this deployment may reach (CARE_API_HOSTS): the form's addresses are read against it. */
  careHosts: CareHostPolicy;
  /** Told after a connection is saved or removed (the app rebuilds that workspace). */
  onChanged(teamId: string, userId: string): Promise<void>;
  signedMetadata: SignedMetadata;
  logger: Logger;
}

const TITLE = 'Connect care system';
const MetaSchema = z.object({ form: z.literal('connect-care') });
const META = { form: 'connect-care' } as const;

type WebClient = AllMiddlewareArgs['client'];
/** The admin, in the workspace the request acts in (workspace-on-context.ts). */
const actorOf = (context: Context, userId: string) => ({ teamId: workspaceOf(context), userId });

async function dm(client: WebClient, deps: ConnectCareDeps, userId: string, text: string, blocks?: Block[]): Promise<void> {
  await client.chat
    .postMessage({ channel: userId, text, ...(blocks ? { blocks } : {}) })
    .catch((err: unknown) => deps.logger.warn('could not send a care connection message', { error: err }));
}

/** The form as it opens: the current address and account Id on reconnect, never the key or secret. */
function initialOf(existing: CareAccount | null): ConnectCareInitial {
  if (!existing) return {};
  const { choice, url } = careAddressChoiceOf(existing.baseUrl);
  return { choice, ...(url ? { otherUrl: url } : {}), accountId: existing.accountId };
}

/** The connect form and its buttons: served before a workspace is ready, with no workspace's deps on the context. */
export function isConnectCareInteraction(body: Record<string, unknown>): boolean {
  const actions = (body.actions as { action_id?: string }[] | undefined) ?? [];
  const view = body.view as { callback_id?: string } | undefined;
  return (
    actions.some((a) => a.action_id === Ids.open || a.action_id === Ids.disconnect) || (body.type === 'view_submission' && view?.callback_id === Ids.modal)
  );
}

export function registerConnectCare(app: App, deps: ConnectCareDeps): void {
  // Connect / Reconnect: open at once (the trigger lives 3 s), then fill the form for an admin.
  // Under the error policy, told through this request's client (the workspace's token).
  app.action<BlockAction<ButtonAction>>(
    Ids.open,
    tellingButtonListener(
      (args) => ({ slack: args.client, logger: deps.logger }),
      'connect care',
      async ({ body, context }, teller) => {
        const actor = actorOf(context, body.user.id);
        await openThenFill(teller, { triggerId: body.trigger_id, title: TITLE, log: 'could not open the connect-care form' }, async () => {
          if (!(await deps.isAdmin(actor.teamId, actor.userId))) return notAdminModal();
          const existing = await deps.setup.careAccount(actor.teamId);
          const sealed = deps.signedMetadata.encode(META, { ...actor, form: Ids.modal });
          return connectCareModal(sealed, initialOf(existing));
        });
      },
    ),
  );

  app.view<ViewSubmitAction>(Ids.modal, async ({ ack, body, view, client, context }: SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs) => {
    const actor = actorOf(context, body.user.id);
    const issued = MetaSchema.safeParse(deps.signedMetadata.decode(view.private_metadata, { ...actor, form: Ids.modal }));
    if (!issued.success) {
      deps.logger.warn('refused a form whose private_metadata did not verify (forged, another person’s, or expired)', {
        form: Ids.modal,
        userId: body.user.id,
      });
      await ack({ response_action: 'update', view: damagedFormModal(TITLE) });
      return;
    }
    const form = readConnectCareForm(view.state.values, deps.careHosts);
    if (!form.ok) {
      // The admin is told what is allowed in general words; the operator's own log (debug) may say which hosts.
      if (deps.careHosts.listedHosts) deps.logger.debug('the connect form was refused', { allowedCareApiHosts: deps.careHosts.listedHosts });
      await ack({ response_action: 'errors', errors: form.errors });
      return;
    }
    const d = form.details;
    await ack({ response_action: 'update', view: checkingModal(d.baseUrl) });

    /** Show the outcome in the form; if the person closed it meanwhile, send it as a DM instead. */
    const show = async (next: types.ModalView, dmText: string, dmBlocks?: Block[]) => {
      const shown = await client.views.update({ view_id: view.id, view: next }).then(
        () => true,
        (err: unknown) => {
          deps.logger.info('the connect-care form was gone; telling the admin by DM', { error: err });
          return false;
        },
      );
      if (!shown) await dm(client, deps, actor.userId, dmText, dmBlocks);
    };

    try {
      if (!(await deps.isAdmin(actor.teamId, actor.userId))) {
        await show(notAdminModal(), `:lock: ${NOT_ADMIN_TEXT}`);
        return;
      }
      const outcome = await deps.setup.connectCare(actor.teamId, actor.userId, {
        baseUrl: d.baseUrl,
        accountId: d.accountId,
        apiKey: d.apiKey,
        apiSecret: d.apiSecret,
      });
      const { check } = outcome;
      if (!outcome.saved) {
        const sentence = check.problem?.sentence ?? 'The care system could not be checked.';
        const sealed = deps.signedMetadata.encode(META, { ...actor, form: Ids.modal });
        await show(connectCareModal(sealed, d.retry, sentence), `:x: The care system was not connected: ${sentence} Try again from the app’s Home tab.`);
        return;
      }
      const applied = await deps.onChanged(actor.teamId, actor.userId).then(
        () => true,
        (err: unknown) => {
          deps.logger.error('saved a care connection, but the app could not switch to it', { teamId: actor.teamId, error: err });
          return false;
        },
      );
      const saved = { accountId: d.accountId, baseUrl: d.baseUrl, applied };
      await show(connectResultModal(check, saved), 'Connected to the care system.', connectResultBlocks(check, saved));
    } catch (err) {
      logFailure(deps.logger, 'connecting the care system failed', err);
      await show(failedModal(TITLE, err), `:warning: ${failureLine(err, 'The care system was not connected')}`);
    }
  });

  // Disconnect (after Slack's confirm dialog): forget the account and its credentials.
  app.action<BlockAction<ButtonAction>>(
    Ids.disconnect,
    async ({ ack, body, client, context }: SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs) => {
      await ack();
      const actor = actorOf(context, body.user.id);
      try {
        if (!(await deps.isAdmin(actor.teamId, actor.userId))) {
          await dm(client, deps, actor.userId, `:lock: ${NOT_ADMIN_TEXT}`);
          return;
        }
        const existing = await deps.setup.disconnectCare(actor.teamId, actor.userId);
        if (!existing) {
          await dm(client, deps, actor.userId, 'This workspace was not connected to a care system.');
          return;
        }
        await deps
          .onChanged(actor.teamId, actor.userId)
          .catch((err: unknown) => deps.logger.error('removed a care connection, but the app could not stop using it', { error: err }));
        await dm(
          client,
          deps,
          actor.userId,
          `:electric_plug: Disconnected this workspace from the care account \`${userText(existing.accountId, 100)}\`; its API key and secret are deleted here. An admin can connect it again from the app’s Home tab.`,
        );
      } catch (err) {
        logFailure(deps.logger, 'disconnecting the care system failed', err);
        await dm(client, deps, actor.userId, `:warning: ${failureLine(err)}`);
      }
    },
  );
}
