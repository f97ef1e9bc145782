import { RESOURCE_NAMES, type ResourceName } from './store.js';

export type Permission = 'read' | 'create' | 'update';
export const PERMISSIONS: readonly Permission[] = ['read', 'create', 'update'];

/**
 * Per-resource permissions of a key. Resource names are the path segments
 * (`notification-groups`; `notification_groups` is accepted too). When a key
 * has a permissions map, a resource missing from it has no permission at all.
 */
export type Permissions = Partial<Record<ResourceName | 'notification_groups' | 'literature_items', readonly Permission[]>>;

export interface KeyConfig {
  apiKey: string;
  apiSecret: string;
  /** Omitted = every permission on every resource. */
  permissions?: Permissions;
}

interface KeyEntry {
  apiKey: string;
  apiSecret: string;
  grants: ReadonlyMap<ResourceName, ReadonlySet<Permission>> | 'all';
}

function normalise(permissions: Permissions): Map<ResourceName, Set<Permission>> {
  const grants = new Map<ResourceName, Set<Permission>>();
  for (const [name, list] of Object.entries(permissions)) {
    const resource = name.replace(/_/g, '-') as ResourceName;
    if (!RESOURCE_NAMES.includes(resource)) throw new Error(`Unknown resource in permissions: ${name}`);
    grants.set(resource, new Set(list ?? []));
  }
  return grants;
}

/** The API keys of the sandbox's one account. */
export class KeyRegistry {
  private readonly keys = new Map<string, KeyEntry>();

  constructor(readonly accountId: string) {}

  /** Add or replace a key. */
  set(config: KeyConfig): void {
    this.keys.set(config.apiKey, {
      apiKey: config.apiKey,
      apiSecret: config.apiSecret,
      grants: config.permissions ? normalise(config.permissions) : 'all',
    });
  }

  secretOf(apiKey: string): string | undefined {
    return this.keys.get(apiKey)?.apiSecret;
  }

  allows(apiKey: string, resource: ResourceName, permission: Permission): boolean {
    const entry = this.keys.get(apiKey);
    if (!entry) return false;
    return entry.grants === 'all' || (entry.grants.get(resource)?.has(permission) ?? false);
  }
}
