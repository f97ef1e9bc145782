import type { DateInput, OneOrMany, TriState } from '../params.js';
import { actionSchema, type Action } from '../schemas.js';
import type { Transport } from '../transport.js';
import { flattenActionInput, type ActionInput, type ActionUpdateInput } from './action-input.js';
import type { CommonFilters, ListParams } from './list-params.js';
import { checkId, createReadResource, type ReadResource } from './read-resource.js';

export type ActionField = keyof Action & string;
export type ActionSortField = '_id' | 'created' | 'completed' | 'due' | 'modified';

/** `q` searches action_no and task. */
export interface ActionFilters extends CommonFilters {
  assigned_to?: OneOrMany<string> | undefined;
  completed?: TriState | undefined;
  urgent?: TriState | undefined;
  /** Actions due on or after this day (a Date gives its UTC day). */
  start_date?: DateInput | undefined;
  /** Actions due on or before this day (a Date gives its UTC day). */
  end_date?: DateInput | undefined;
  /** Care enquiry and/or service user ids. */
  parent_subject?: OneOrMany<string> | undefined;
}
export type ActionListParams = ListParams<ActionField, ActionSortField, ActionFilters>;

/**
 * Mutations resolve to the action the API returns, or `null` when the server
 * answered 204 with no body.
 *
 * Retries: `update`, `complete` and `reopen` are idempotent (they set state to
 * given values), so they are retried after timeouts, broken connections and
 * 502/503/504 like GETs. `create` is retried only after a 429 or when the
 * connection was never made; a timeout or 5xx on create is thrown, since the
 * action may exist: check before creating again.
 */
export interface ActionsResource extends ReadResource<Action, ActionListParams, ActionField> {
  create(input: ActionInput): Promise<Action | null>;
  update(id: string, input: ActionUpdateInput): Promise<Action | null>;
  complete(id: string): Promise<Action | null>;
  reopen(id: string): Promise<Action | null>;
}

export function createActionsResource(transport: Transport): ActionsResource {
  const read = createReadResource<Action, ActionListParams, ActionField>(transport, 'actions', actionSchema);
  return {
    ...read,
    create: async (input) =>
      transport.request({ method: 'PUT', path: 'actions', params: flattenActionInput(input, 'create'), schema: actionSchema, idempotent: false }),
    update: async (id, input) =>
      transport.request({
        method: 'PATCH',
        path: `actions/${checkId(id)}`,
        params: flattenActionInput(input, 'update'),
        schema: actionSchema,
        idempotent: true,
      }),
    complete: async (id) => transport.request({ method: 'PATCH', path: `actions/${checkId(id)}/complete`, schema: actionSchema, idempotent: true }),
    reopen: async (id) => transport.request({ method: 'PATCH', path: `actions/${checkId(id)}/reopen`, schema: actionSchema, idempotent: true }),
  };
}
