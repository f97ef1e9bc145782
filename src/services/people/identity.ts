import { NotFoundError, type CareClient } from '../../care/index.js';
import type { Logger } from '../../logging/logger.js';
import type { IdentityLink, LinkRequest, WorkspaceStore } from '../../store/index.js';
import { UserFacingError } from '../errors.js';
import { type CareUserDirectory, type CareUserRow, fullName, usersUnavailable } from '../read-cache/care-users.js';
import { CareUserTakenError, createLinkGuard } from './link-guard.js';
import { adminReasonBy, type NamedAdmins, namedAdminReason, namedAdmins } from './admin-rule.js';
import { isSlackAdminOf } from './slack-admin.js';
import type { SlackProfiles } from './slack-profiles.js';

/** The person acting: their workspace is the one the service was composed for, never carried here. */
export interface Actor {
  userId: string;
  /** The channel post the change was made from, when it was one: its listener draws it there itself (post-redraw.ts). */
  at?: { channel: string; ts: string } | undefined;
}

export type LinkSelfResult =
  | { kind: 'already'; link: IdentityLink }
  | { kind: 'linked'; link: IdentityLink; careUserName: string; careUserEmail: string | null }
  /** The care user with the person's email is linked to someone else of the workspace: nothing was changed. */
  | { kind: 'taken'; error: CareUserTakenError }
  | { kind: 'requested'; request: LinkRequest; created: boolean; reason: 'no-users-permission' | 'no-email-match' | 'no-email' };

export interface IdentityService {
  getLink(actor: Actor): Promise<IdentityLink | null>;
  /** The link, or a UserFacingError telling the person how to link. */
  requireLink(actor: Actor): Promise<IdentityLink>;
  isAdmin(actor: Actor): Promise<boolean>;
  requireAdmin(actor: Actor): Promise<void>;
  /** Whether Slack reports this person as an admin or owner of the workspace (slack-admin.ts), whatever else makes them an admin. */
  isSlackAdmin(actor: Actor): Promise<boolean>;
  linkSelf(actor: Actor, requestedCareUserId?: string): Promise<LinkSelfResult>;
  adminLink(admin: Actor, slackUserId: string, careUserId: string): Promise<IdentityLink>;
  unlink(actor: Actor, slackUserId: string): Promise<boolean>;
  decideRequest(admin: Actor, requestId: number, decision: 'approved' | 'rejected', careUserId?: string): Promise<LinkRequest>;
  /** The Slack person of this workspace linked to a care user (for mentions), if any. */
  slackUserFor(careUserId: string): Promise<string | null>;
  /** Slack names (display or real name) of these Slack users, for plain text; those Slack would not tell are left out. */
  slackNames(slackUserIds: string[]): Promise<Map<string, string>>;
  careUserName(careUserId: string): Promise<string | undefined>;
  careUserNames(careUserIds: string[]): Promise<Map<string, string>>;
  /** Name and email of these care users (those the API key may read). */
  careUsers(careUserIds: string[]): Promise<Map<string, CareUserSummary>>;
  /**
   * Care users whose name or email holds every word of `query` (or whose Id it
   * is), by name, at most 100: what an admin picks from. `available` is false
   * when the API key may not read users (then only a typed Id can link).
   */
  findCareUsers(query: string): Promise<{ available: boolean; users: CareUserSummary[] }>;
  /**
   * findCareUsers for an admin linking a request's requester: each care user marked `linked` when
   * someone of the workspace already has them (linking is then refused), and `otherEmail` when
   * their email is not the requester's Slack email (unmarked when the requester shows no email).
   */
  linkChoices(admin: Actor, query: string, requestId?: number): Promise<{ available: boolean; users: LinkChoice[] }>;
  /**
   * Everyone on the rota a linked person may assign work to: care users whose name (or Id) holds
   * every word of `query`, by name, at most 100, each with the Slack person of this workspace linked
   * to them, if any (those without one see their work in the care system only). Names only, no emails.
   */
  assigneeChoices(actor: Actor, query: string): Promise<{ available: boolean; users: AssigneeChoice[] }>;
  /** Whether the API key may list care users (one request of one item). */
  canListCareUsers(): Promise<boolean>;
  /** The person's own link request still waiting for an admin, if any. */
  pendingRequestOf(actor: Actor): Promise<LinkRequest | null>;
  adminIds(): string[];
  /** Admins only: every link of the workspace with care user names, and the requests waiting. */
  listLinks(admin: Actor): Promise<{ links: LinkRow[]; pending: LinkRequest[] }>;
  /**
   * A request of this workspace still waiting for a decision, or a sentence
   * saying why not. Reads the store only (fit for before a views.open); who may
   * decide is checked by decideRequest.
   */
  pendingRequest(requestId: number): Promise<LinkRequest>;
}

/** A care user as people pick them: by name and email. */
export interface CareUserSummary {
  id: string;
  name: string;
  email: string | null;
}

/** A care user offered to an admin approving a link request, with what to watch out for. */
export interface LinkChoice extends CareUserSummary {
  /** Someone of the workspace is linked to this care user already. */
  linked?: boolean;
  /** The care user's email is not the requester's Slack email. */
  otherEmail?: boolean;
}

/** A care user offered as an assignee: linked to a Slack person of the workspace, or not in Slack. */
export interface AssigneeChoice {
  id: string;
  name: string;
  slackUserId?: string;
}

/** A link as admins see it. */
export interface LinkRow {
  slackUserId: string;
  /** The Slack person's name (for plain text such as a confirmation), when Slack told it. */
  slackName?: string;
  careUserId: string;
  careUserName?: string;
  careUserEmail?: string;
  /** Other Slack people of the workspace linked to the same care user (links from before that was refused). */
  alsoLinked?: string[];
  method: string;
  createdBy: string | null;
  createdAt: number;
}

const summary = (u: CareUserRow): CareUserSummary => ({
  id: u._id,
  name: fullName(u),
  email: u.email ?? null,
});
const PICK_LIMIT = 100;
/** Links whose Slack person's name is read for `/care links` (it shows the first 45). */
const NAMED_LINKS = 50;

export function createIdentityService(deps: {
  store: WorkspaceStore;
  care: CareClient;
  profiles: SlackProfiles;
  /** The admins the deployment names (one workspace: ADMIN_SLACK_USER_IDS; many: the installer and those added); Slack's admins and owners count too (admin-rule.ts). */
  admins: NamedAdmins;
  logger: Logger;
  /** Care users (names, linking by email), kept a few minutes and refreshed in the background. */
  users: CareUserDirectory;
  /** The workspace it serves (bound at composition: no caller names one). */
  teamId: () => Promise<string>;
}): IdentityService {
  const { store, care, profiles, users, logger } = deps;
  // One care user, at most one Slack person per workspace: every way of linking goes through the guard.
  const guard = createLinkGuard({ store, profiles, teamId: deps.teamId, careUserName: async (id) => (await users.names([id])).get(id) });

  async function audit(actor: Actor, verb: string, details: Record<string, unknown>) {
    await store.appendAudit({ userId: actor.userId, verb, details });
  }

  async function findCareUserByEmail(email: string): Promise<CareUserRow | null> {
    // The directory answers at once; a miss (a care user added since it was read) still asks the API.
    const known = (await users.directory())?.byEmail.get(email.toLowerCase());
    if (known) return known;
    const page = await care.users.list({ filters: { q: email }, attributes: ['_id', 'email', 'first_name', 'last_name'], per_page: 100 });
    return page.items.find((u) => u.email?.toLowerCase() === email.toLowerCase()) ?? null;
  }

  /** Refuses an Id no care user has, when the API key may read users (else it cannot be checked, and is taken). */
  async function checkCareUser(careUserId: string): Promise<void> {
    try {
      await care.users.retrieve(careUserId, { attributes: ['_id'] });
    } catch (err) {
      if (err instanceof NotFoundError) {
        // 404 means "no such user" only when the users endpoint works at all.
        const listWorks = await care.users.list({ per_page: 1 }).then(
          () => true,
          () => false,
        );
        if (listWorks)
          throw new UserFacingError(
            `No care user has the Id \`${careUserId}\`. Check it on the care system's user page, or pick the person by name.`,
            'not-found',
          );
      } else if (!usersUnavailable(err)) throw err;
    }
  }

  const service: IdentityService = {
    getLink: (actor) => store.getLinkBySlackUser(actor.userId),

    async requireLink(actor) {
      const link = await store.getLinkBySlackUser(actor.userId);
      if (!link) throw new UserFacingError('Only people with a linked care account can do that. Type `/care link` to link yours.', 'not-linked');
      return link;
    },

    async isAdmin(actor) {
      // The one admin rule (admin-rule.ts): the ids the deployment names, or Slack's admins and owners of this workspace.
      if (namedAdminReason(actor.userId, deps.admins)) return true;
      return (await adminReasonBy(actor.userId, await deps.teamId(), deps.admins, async () => (await profiles.get(actor.userId)).flags)) !== null;
    },

    async requireAdmin(actor) {
      if (!(await service.isAdmin(actor)))
        throw new UserFacingError('Only admins can do that. Ask a workspace admin; `/care help` shows what you can do yourself.', 'not-admin');
    },

    async isSlackAdmin(actor) {
      // Slack failing to answer counts as "not" (the safe side), as in the admin rule.
      return Promise.all([profiles.get(actor.userId), deps.teamId()]).then(
        ([p, teamId]) => isSlackAdminOf(p.flags, teamId),
        () => false,
      );
    },

    async linkSelf(actor, requestedCareUserId) {
      const existing = await store.getLinkBySlackUser(actor.userId);
      if (existing) return { kind: 'already', link: existing };
      const profile = await profiles.get(actor.userId);
      let reason: 'no-users-permission' | 'no-email-match' | 'no-email' = 'no-email';
      if (profile.email) {
        try {
          const match = await findCareUserByEmail(profile.email);
          if (match) {
            let link: IdentityLink;
            try {
              link = await guard.link(match._id, actor.userId, () =>
                store.upsertLink({ slackUserId: actor.userId, careUserId: match._id, method: 'email', linkedBy: null }),
              );
            } catch (err) {
              if (err instanceof CareUserTakenError) return { kind: 'taken', error: err };
              throw err;
            }
            await audit(actor, 'link.email', { careUserId: match._id });
            return { kind: 'linked', link, careUserName: fullName(match), careUserEmail: match.email ?? null };
          }
          reason = 'no-email-match';
        } catch (err) {
          if (!usersUnavailable(err)) throw err;
          reason = 'no-users-permission';
        }
      }
      const { request, created } = await store.createLinkRequest({ slackUserId: actor.userId, careUserId: requestedCareUserId ?? null });
      if (created) await audit(actor, 'link.request', { requestId: request.id });
      return { kind: 'requested', request, created, reason };
    },

    async adminLink(admin, slackUserId, careUserId) {
      await service.requireAdmin(admin);
      await checkCareUser(careUserId);
      const link = await guard.link(careUserId, slackUserId, () => store.upsertLink({ slackUserId, careUserId, method: 'admin', linkedBy: admin.userId }));
      await audit(admin, 'link.admin', { slackUserId, careUserId });
      return link;
    },

    async unlink(actor, slackUserId) {
      if (slackUserId !== actor.userId) await service.requireAdmin(actor);
      const removed = await store.deleteLink(slackUserId);
      if (removed) await audit(actor, 'link.remove', { slackUserId });
      return removed;
    },

    async decideRequest(admin, requestId, decision, careUserId) {
      await service.requireAdmin(admin);
      const request = Number.isSafeInteger(requestId) ? await store.getLinkRequest(requestId) : null;
      if (!request || request.teamId !== (await deps.teamId())) throw new UserFacingError('That link request no longer exists.', 'not-found');
      const chosen = careUserId ?? request.careUserId ?? undefined;
      if (decision === 'approved' && !chosen) throw new UserFacingError('Pick the care user to link them to, or give their care user Id.', 'invalid');
      if (decision === 'approved' && chosen && request.state === 'pending') await checkCareUser(chosen);
      const decide = () => store.decideLinkRequest(requestId, decision, admin.userId, chosen ? { careUserId: chosen } : {});
      const result = decision === 'approved' && chosen && request.state === 'pending' ? await guard.link(chosen, request.slackUserId, decide) : await decide();
      if (!result.ok) {
        if (result.reason === 'already-decided')
          throw new UserFacingError(`That request was already ${result.request.state} by <@${result.request.decidedBy}>.`, 'invalid');
        throw new UserFacingError('That link request no longer exists.', 'not-found');
      }
      await audit(admin, `link.${decision === 'approved' ? 'approve' : 'reject'}`, { requestId, slackUserId: request.slackUserId, careUserId: chosen });
      return result.request;
    },

    async slackUserFor(careUserId) {
      const links = await store.getLinksByCareUser(careUserId);
      if (links.length === 0) return null;
      // Only a person of this workspace: a care user linked elsewhere is not someone to mention here.
      const teamId = await deps.teamId();
      return links.find((l) => l.teamId === teamId)?.slackUserId ?? null;
    },

    async slackNames(slackUserIds) {
      const out = new Map<string, string>();
      await Promise.all(
        [...new Set(slackUserIds)].map(async (id) => {
          const name = await profiles.get(id).then(
            (p) => p.name,
            () => undefined,
          );
          if (name && name !== id) out.set(id, name);
        }),
      );
      return out;
    },

    async careUserName(careUserId) {
      return (await service.careUserNames([careUserId])).get(careUserId);
    },

    careUserNames: (careUserIds) => users.names(careUserIds),

    async careUsers(careUserIds) {
      // From the directory kept in memory (see read-cache/care-users.ts); those not in it are read.
      const out = new Map<string, CareUserSummary>();
      const wanted = [...new Set(careUserIds)];
      const known = wanted.length ? await users.directory() : null;
      for (const id of wanted) {
        const u = known?.byId.get(id);
        if (u) out.set(id, summary(u));
      }
      const missing = wanted.filter((id) => !out.has(id));
      if (missing.length) {
        try {
          for await (const u of care.users.iterate({ filters: { ids: missing }, attributes: ['_id', 'first_name', 'last_name', 'email'], limit: 500 }))
            out.set(u._id, summary(u));
        } catch (err) {
          if (!usersUnavailable(err)) logger.warn('could not read care user names', { error: err });
        }
      }
      return out;
    },

    async findCareUsers(query) {
      const q = query.trim().toLowerCase();
      // The API's q looks for one piece of text in one field: ask with the longest word, keep those with every word.
      const words = q.split(/[\s,;()<>·|]+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
      const longest = [...words].sort((a, b) => b.length - a.length)[0];
      const matches = (u: CareUserSummary) => q === u.id || words.every((w) => `${u.name} ${u.email ?? ''}`.toLowerCase().includes(w));
      const byName = (a: CareUserSummary, b: CareUserSummary) => a.name.localeCompare(b.name);
      // Each keystroke in the approval form asks: answered from the care users held in memory (read-cache/care-users.ts)
      // when there are, else from the API.
      const known = await users.directory();
      if (known) return { available: true, users: [...known.byId.values()].map(summary).filter(matches).sort(byName).slice(0, PICK_LIMIT) };
      try {
        const items = await care.users.collect({
          filters: /^[0-9a-f]{24}$/.test(q) ? { ids: [q] } : longest ? { q: longest } : {},
          attributes: ['_id', 'first_name', 'last_name', 'email'],
          per_page: 100,
          // Everyone (no words) is one page; with words, a few pages before keeping the matches.
          limit: longest ? 300 : PICK_LIMIT,
        });
        return { available: true, users: items.map(summary).filter(matches).sort(byName).slice(0, PICK_LIMIT) };
      } catch (err) {
        if (usersUnavailable(err)) return { available: false, users: [] };
        throw err;
      }
    },

    async linkChoices(_admin, query, requestId) {
      const teamId = await deps.teamId();
      const [found, links, request] = await Promise.all([
        service.findCareUsers(query),
        store.listLinks().then((all) => all.filter((l) => l.teamId === teamId)),
        requestId === undefined ? null : service.pendingRequest(requestId).catch(() => null),
      ]);
      const email = request ? (await profiles.get(request.slackUserId).catch(() => null))?.email?.toLowerCase() : undefined;
      const taken = new Set(links.filter((l) => l.slackUserId !== request?.slackUserId).map((l) => l.careUserId));
      const users = found.users.map((u) => ({
        ...u,
        ...(taken.has(u.id) ? { linked: true } : {}),
        ...(email && u.email?.toLowerCase() !== email ? { otherEmail: true } : {}),
      }));
      return { available: found.available, users };
    },

    async assigneeChoices(_actor, query) {
      const teamId = await deps.teamId();
      const [found, links] = await Promise.all([service.findCareUsers(query), store.listLinks().then((all) => all.filter((l) => l.teamId === teamId))]);
      const slackOf = new Map<string, string>();
      for (const l of links) if (!slackOf.has(l.careUserId)) slackOf.set(l.careUserId, l.slackUserId);
      const users = found.users.map((u): AssigneeChoice => {
        const slackUserId = slackOf.get(u.id);
        return { id: u.id, name: u.name, ...(slackUserId ? { slackUserId } : {}) };
      });
      return { available: found.available, users };
    },

    async canListCareUsers() {
      try {
        await care.users.list({ per_page: 1, attributes: ['_id'] });
        return true;
      } catch (err) {
        if (usersUnavailable(err)) return false;
        throw err;
      }
    },

    async pendingRequestOf(actor) {
      const [pending, teamId] = await Promise.all([store.listLinkRequests({ state: 'pending' }), deps.teamId()]);
      return pending.find((r) => r.teamId === teamId && r.slackUserId === actor.userId) ?? null;
    },

    adminIds: () => namedAdmins(deps.admins).map((a) => a.userId),

    async listLinks(admin) {
      await service.requireAdmin(admin);
      const teamId = await deps.teamId();
      const inTeam = <T extends { teamId: string }>(rows: T[]) => rows.filter((r) => r.teamId === teamId);
      const [links, pending] = await Promise.all([store.listLinks().then(inTeam), store.listLinkRequests({ state: 'pending' }).then(inTeam)]);
      // Slack names (one users.info each, kept 10 minutes) only of the first rows: `/care links` shows 45.
      const [users, slackNames] = await Promise.all([
        service.careUsers(links.map((l) => l.careUserId)),
        service.slackNames(links.slice(0, NAMED_LINKS).map((l) => l.slackUserId)),
      ]);
      const peopleOf = new Map<string, string[]>();
      for (const l of links) peopleOf.set(l.careUserId, [...(peopleOf.get(l.careUserId) ?? []), l.slackUserId]);
      const rows = links.map((l) => {
        const user = users.get(l.careUserId);
        const slackName = slackNames.get(l.slackUserId);
        const others = (peopleOf.get(l.careUserId) ?? []).filter((u) => u !== l.slackUserId);
        return {
          slackUserId: l.slackUserId,
          ...(slackName ? { slackName } : {}),
          careUserId: l.careUserId,
          ...(user ? { careUserName: user.name } : {}),
          ...(user?.email ? { careUserEmail: user.email } : {}),
          ...(others.length ? { alsoLinked: others } : {}),
          method: l.method,
          createdBy: l.linkedBy,
          createdAt: l.linkedAt,
        };
      });
      return { links: rows, pending };
    },

    async pendingRequest(requestId) {
      const request = Number.isSafeInteger(requestId) ? await store.getLinkRequest(requestId) : null;
      if (!request || request.teamId !== (await deps.teamId())) throw new UserFacingError('That link request no longer exists.', 'not-found');
      if (request.state !== 'pending') {
        throw new UserFacingError(`That request was already ${request.state}${request.decidedBy ? ` by <@${request.decidedBy}>` : ''}.`, 'invalid');
      }
      return request;
    },
  };
  return service;
}
