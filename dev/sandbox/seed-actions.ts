import type { Action, Reminder, Subject, SubjectType } from './resources/types.js';
import { DAY_MS, type SeedContext } from './seed-context.js';
import type { LocationKey } from './seed-people.js';
import type { Places } from './seed-places.js';
import { formatDateTime, wholeSeconds } from './wire-time.js';

const TITLES = ['Mrs', 'Mr', 'Ms', 'Miss', 'Dr'] as const;
const SURNAMES = [
  'Patel',
  'Jenkins',
  'Williams',
  'Khan',
  'Thompson',
  'Davies',
  'Wright',
  'Robinson',
  'Walker',
  'Edwards',
  'Ali',
  'Green',
  'Hall',
  'Wood',
  'Clarke',
  'Jackson',
  'Lewis',
  'Hill',
  'Ahmed',
  'Cooper',
  'Ward',
  'Morris',
  'Baker',
  'Kowalski',
  'Singh',
  'Harrison',
  'Martin',
  'Phillips',
  'Parker',
  'Turner',
  'Collins',
  'Murray',
  'Shaw',
  'Lloyd',
  'Bailey',
  'Fletcher',
];

const TASKS: Record<string, readonly string[]> = {
  care_enquiry: [
    "Call {name}'s family back about availability",
    'Send {name} the fees and funding guide',
    'Arrange a visit to {loc} for {name}',
    "Follow up enquiry from {name}'s daughter",
    'Check local authority funding for {name}',
  ],
  assessment: ['Complete pre-admission assessment for {name}', 'Book assessment visit for {name}', 'Write up assessment notes for {name}'],
  call: ["Return call from {name}'s son", 'Call {name} back about a respite stay'],
  comment: ["Reply to family comment about {name}'s room", 'Answer question from {name} about visiting times'],
  service_user: [
    'Medication review for {name} with the GP',
    'Update care plan for {name}',
    'Book chiropodist for {name}',
    "Arrange review meeting with {name}'s family",
    'Order pressure-relieving mattress for {name}',
    'Check weight chart for {name}',
    'Falls risk assessment for {name}',
    'Renew DoLS authorisation for {name}',
  ],
  home_visit: ["Confirm rota for {name}'s morning visits", 'Write up home visit notes for {name}', 'Key safe code changed for {name}: update visit notes'],
  location: [
    'Weekly fire alarm test at {loc}',
    'Fix nurse call bell in room {n} at {loc}',
    'Fridge temperature audit at {loc}',
    'Submit CQC notification for {loc}',
    'Order PPE for {loc}',
    'Plan staff supervisions at {loc}',
  ],
  none: ['Renew DBS checks for new starters', 'Prepare the monthly quality report', 'Review agency staff spend', 'Update the on-call rota'],
};

const CARE_HOMES: readonly LocationKey[] = ['willow', 'heather', 'beeches', 'homecare', 'willow', 'heather', 'orchard'];

/** Care enquiries and service users the demo actions relate to. */
export function seedSubjects(ctx: SeedContext, places: Places): Subject[] {
  const subjects: Subject[] = [];
  for (let i = 0; i < 100; i++) {
    const key = ctx.rng.pick(CARE_HOMES);
    subjects.push({
      _id: ctx.foreignId(300),
      type: i < 40 ? 'care_enquiry' : 'service_user',
      location: places.locationIds[key],
      name: `${ctx.rng.pick(TITLES)} ${ctx.rng.pick(SURNAMES)}`,
    });
  }
  return subjects;
}

function reminder(ctx: SeedContext): Reminder {
  const method = ctx.rng.pick(['email', 'sms_or_whatsapp', 'voice', 'user_pref'] as const);
  const r = ctx.rng.next();
  if (r < 0.6) return { method, offset_type: 'delta', offset_delta: ctx.rng.pick([5, 10, 15, 30, 45, 60]) };
  if (r < 0.9) return { method, offset_type: 'time', offset_delta: null, offset_time_str: `0${ctx.rng.int(7, 9)}:${ctx.rng.pick(['00', '15', '30', '45'])}` };
  return { method, offset_type: 'none', offset_delta: null };
}

/** A due time on the day of `dayMs` at 07:00-19:00 UTC on a quarter hour. */
function onDay(dayMs: number, ctx: SeedContext): number {
  const midnight = Math.floor(dayMs / DAY_MS) * DAY_MS;
  return midnight + (7 * 60 + ctx.rng.int(0, 48) * 15) * 60_000;
}

/**
 * `count` actions spread over overdue / due today / upcoming / completed,
 * relative to the anchor, numbered in order of creation.
 */
export function seedActions(ctx: SeedContext, places: Places, subjects: readonly Subject[], count: number): Action[] {
  const { rng, anchor } = ctx;
  const tagIds = [ctx.foreignId(), ctx.foreignId(), ctx.foreignId(), ctx.foreignId()];
  const drafts: Omit<Action, '_id' | 'action_no'>[] = [];
  for (let i = 0; i < count; i++) {
    const subject = rng.chance(0.85) ? rng.pick(subjects) : null;
    let subjectType: SubjectType | null;
    if (subject?.type === 'care_enquiry') subjectType = rng.pick(['care_enquiry', 'care_enquiry', 'care_enquiry', 'assessment', 'call', 'comment'] as const);
    else if (subject) subjectType = rng.pick(['service_user', 'service_user', 'service_user', 'service_user', 'home_visit', 'comment'] as const);
    else subjectType = rng.chance(0.7) ? 'location' : null;
    const locationId =
      subject?.location ?? (subjectType === 'location' ? places.locationIds[rng.pick(['willow', 'heather', 'beeches', 'homecare'] as const)] : null);
    const location = places.locations.find((l) => l._id === locationId);
    const autoTag = subject?.type === 'service_user' && rng.chance(0.12);
    const task = (autoTag ? 'Care plan review due for {name}' : rng.pick(TASKS[subjectType ?? 'none'] ?? []))
      .replace('{name}', subject?.name ?? '')
      .replace('{loc}', location?.name ?? 'head office')
      .replace('{n}', String(rng.int(1, 40)));

    const bucket = rng.next();
    let due: number;
    let completed: number | null = null;
    let created: number;
    if (bucket < 0.15) {
      due = onDay(anchor - rng.int(1, 40) * DAY_MS, ctx);
      created = wholeSeconds(due - rng.next() * 20 * DAY_MS);
      completed = wholeSeconds(Math.min(anchor, Math.max(created + 60_000, due - DAY_MS + rng.next() * 3 * DAY_MS)));
    } else if (bucket < 0.4) {
      // Open and overdue, some for over a month (as in a real care system): the digest summarises those per carer.
      due = onDay(anchor - rng.int(1, 45) * DAY_MS, ctx);
      created = wholeSeconds(due - rng.next() * 20 * DAY_MS);
    } else if (bucket < 0.6) {
      due = onDay(anchor, ctx);
      created = wholeSeconds(Math.min(anchor, due) - (0.02 + rng.next() * 10) * DAY_MS);
    } else {
      due = onDay(anchor + rng.int(1, 45) * DAY_MS, ctx);
      created = wholeSeconds(anchor - rng.next() * 20 * DAY_MS);
    }
    const lastChange = completed ?? wholeSeconds(created + rng.next() * (anchor - created));
    const staff = places.users.filter((u) => locationId !== null && u.locations.includes(locationId));
    const assignee = rng.chance(0.9) ? rng.pick(staff.length > 0 ? staff : places.users) : null;
    const reminders: Reminder[] = rng.chance(0.45) ? [reminder(ctx)] : [];
    if (reminders.length > 0 && rng.chance(0.2)) reminders.push(reminder(ctx));
    const parent = subject ? { id: subject._id, type: subject.type } : null;
    drafts.push({
      assessment: subjectType === 'assessment' ? ctx.foreignId(60) : null,
      assigned_to: assignee?._id ?? null,
      call: subjectType === 'call' ? ctx.foreignId(60) : null,
      care_enquiry: parent?.type === 'care_enquiry' ? parent.id : null,
      comment: subjectType === 'comment' ? ctx.foreignId(60) : null,
      completed: completed === null ? null : formatDateTime(completed),
      created: formatDateTime(created),
      due: formatDateTime(due),
      home_visit: subjectType === 'home_visit' ? ctx.foreignId(60) : null,
      location: locationId,
      modified: formatDateTime(Math.max(created, lastChange)),
      notify_on_complete: rng.chance(0.2) ? rng.sample(places.groups, rng.int(1, 2)).map((g) => g._id) : [],
      parent_subject: parent?.id ?? null,
      parent_subject_type: parent?.type ?? null,
      pin_to_calendar: rng.chance(0.15) ? rng.pick(['user', 'user', 'location'] as const) : null,
      reminders,
      service_users: parent?.type === 'service_user' ? parent.id : null,
      subject_type: subjectType,
      tag: autoTag ? 'care_plan_review' : null,
      task,
      urgent: rng.chance(0.12),
      user_tags: rng.chance(0.15) ? [rng.pick(tagIds)] : [],
    });
  }
  drafts.sort((a, b) => (a.created < b.created ? -1 : a.created > b.created ? 1 : 0));
  return drafts.map((d, i) => ({ _id: ctx.ids.next(Date.parse(`${d.created.replace(' ', 'T')}Z`)), action_no: String(i + 1), ...d }));
}
