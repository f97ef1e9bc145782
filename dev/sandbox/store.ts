import { Collection } from './collection.js';
import type { VirtualClock } from './clock.js';
import { ObjectIdFactory } from './object-id.js';
import type { Action, LiteratureItem, Location, NotificationGroup, Subject, User } from './resources/types.js';
import { formatDateTime, wholeSeconds } from './wire-time.js';

/** Everything the sandbox holds; the persisted form (JSON) of the data. */
export interface StoreData {
  users: User[];
  notificationGroups: NotificationGroup[];
  locations: Location[];
  literatureItems: LiteratureItem[];
  actions: Action[];
  subjects: Subject[];
  nextActionNo: number;
}

export type ResourceName = 'actions' | 'notification-groups' | 'locations' | 'literature-items' | 'users';
export const RESOURCE_NAMES: readonly ResourceName[] = ['actions', 'notification-groups', 'locations', 'literature-items', 'users'];

/** In-memory data of the sandbox plus its virtual clock. Listeners hear about every change. */
export class Store {
  readonly users: Collection<User>;
  readonly notificationGroups: Collection<NotificationGroup>;
  readonly locations: Collection<Location>;
  readonly literatureItems: Collection<LiteratureItem>;
  readonly actions: Collection<Action>;
  readonly subjects = new Map<string, Subject>();
  private nextActionNo = 1;
  private readonly listeners = new Set<() => void>();
  private ids: ObjectIdFactory;

  constructor(
    readonly clock: VirtualClock,
    private readonly hex: (length: number) => string,
  ) {
    const notify = () => this.emit();
    this.users = new Collection(notify);
    this.notificationGroups = new Collection(notify);
    this.locations = new Collection(notify);
    this.literatureItems = new Collection(notify);
    this.actions = new Collection(notify);
    this.ids = new ObjectIdFactory(hex);
  }

  collection(name: ResourceName): Collection<User | NotificationGroup | Location | LiteratureItem | Action> {
    switch (name) {
      case 'actions':
        return this.actions;
      case 'notification-groups':
        return this.notificationGroups;
      case 'locations':
        return this.locations;
      case 'literature-items':
        return this.literatureItems;
      case 'users':
        return this.users;
    }
  }

  /** Virtual now, whole seconds, in ms. */
  nowMs(): number {
    return wholeSeconds(this.clock.now());
  }

  /** Virtual now as a wire date/time. */
  nowWire(): string {
    return formatDateTime(this.clock.now());
  }

  newId(createdMs: number = this.clock.now()): string {
    let id = this.ids.next(createdMs);
    while (this.actions.get(id)) id = this.ids.next(createdMs);
    return id;
  }

  /** The next action number (unique, increasing). */
  takeActionNo(): string {
    return String(this.nextActionNo++);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): StoreData {
    return {
      users: this.users.values(),
      notificationGroups: this.notificationGroups.values(),
      locations: this.locations.values(),
      literatureItems: this.literatureItems.values(),
      actions: this.actions.values(),
      subjects: [...this.subjects.values()],
      nextActionNo: this.nextActionNo,
    };
  }

  load(data: StoreData): void {
    this.users.replaceAll(data.users);
    this.notificationGroups.replaceAll(data.notificationGroups);
    this.locations.replaceAll(data.locations);
    this.literatureItems.replaceAll(data.literatureItems);
    this.actions.replaceAll(data.actions);
    this.subjects.clear();
    for (const s of data.subjects) this.subjects.set(s._id, s);
    this.nextActionNo = data.nextActionNo;
    this.ids = new ObjectIdFactory(this.hex);
    this.emit();
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }
}
