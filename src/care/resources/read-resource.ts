/**
 * list / iterate / iteratePages / retrieve, shared by every resource.
 */
import type { z } from 'zod';
import { collect, flattenPages, paginate, type IterateOptions } from '../pagination.js';
import { flattenListParams, flattenRetrieveParams, type ListParamsBase } from '../params.js';
import { pageSchema, type Page } from '../schemas.js';
import type { Transport } from '../transport.js';

/** `iterate` asks for this many items per page unless told otherwise (the API maximum). */
export const ITERATE_PER_PAGE = 100;

export interface RetrieveOptions<Field extends string> {
  attributes?: readonly (Field | (string & {}))[] | undefined;
}

export interface ReadResource<T, P extends ListParamsBase, Field extends string> {
  /** One page. Without `per_page` nothing is sent and the API default (10) applies. */
  list(params?: P): Promise<Page<T>>;
  /** Every item of every page from `params.page` (default 1), at most `limit`; 100 per page by default. */
  iterate(params?: P & IterateOptions): AsyncGenerator<T, void, undefined>;
  /** Every page, at most `limit` pages; 100 per page by default. */
  iteratePages(params?: P & IterateOptions): AsyncGenerator<Page<T>, void, undefined>;
  /** Up to `limit` items as an array. */
  collect(params: P & { limit: number }): Promise<T[]>;
  retrieve(id: string, options?: RetrieveOptions<Field>): Promise<T>;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** An id that is safe to put in a path segment. */
export function checkId(id: string): string {
  if (typeof id !== 'string' || !ID.test(id)) throw new TypeError('id: expected a resource id (letters, digits, _ or -)');
  return id;
}

export function createReadResource<T, P extends ListParamsBase, Field extends string>(
  transport: Transport,
  path: string,
  schema: z.ZodType<T>,
): ReadResource<T, P, Field> {
  const listSchema = pageSchema(schema);

  const list = async (params?: P): Promise<Page<T>> =>
    (await transport.request({ method: 'GET', path, params: flattenListParams(params), schema: listSchema })) as Page<T>;

  const pages = (params: (P & IterateOptions) | undefined, maxPages: number | undefined, itemLimit?: number) => {
    const { limit: _limit, ...rest } = params ?? ({} as P & IterateOptions);
    const perPage = rest.per_page ?? Math.min(ITERATE_PER_PAGE, Math.max(1, itemLimit ?? ITERATE_PER_PAGE));
    return paginate((page) => list({ ...rest, page, per_page: perPage } as P), rest.page ?? 1, maxPages);
  };

  return {
    list,
    iterate: (params) => flattenPages(pages(params, undefined, params?.limit), params?.limit),
    iteratePages: (params) => pages(params, params?.limit),
    collect: (params) => collect(flattenPages(pages(params, undefined, params.limit), params.limit), params.limit),
    retrieve: async (id, options) =>
      (await transport.request({ method: 'GET', path: `${path}/${checkId(id)}`, params: flattenRetrieveParams(options), schema })) as T,
  };
}
