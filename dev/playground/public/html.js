// Escaping and small text helpers shared by the renderers (pure, no DOM).

const HTML_ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape text for HTML element content and (quoted) attribute values. */
export function escapeHtml(value) {
  return String(value ?? '').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/** Decode Slack's three entities once (`&amp;lt;` becomes the literal text `&lt;`). */
export function decodeEntities(text) {
  return String(text ?? '').replace(/&(amp|lt|gt);/g, (_, name) => ({ amp: '&', lt: '<', gt: '>' })[name]);
}

/** A few emoji short codes apps commonly use; unknown codes stay as text. */
const EMOJI = {
  white_check_mark: '✅',
  heavy_check_mark: '✔️',
  ballot_box_with_check: '☑️',
  x: '❌',
  warning: '⚠️',
  rotating_light: '🚨',
  bell: '🔔',
  no_bell: '🔕',
  calendar: '📆',
  date: '📅',
  spiral_calendar_pad: '🗓️',
  alarm_clock: '⏰',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  clock3: '🕒',
  clock9: '🕘',
  memo: '📝',
  pencil: '📝',
  pencil2: '✏️',
  clipboard: '📋',
  pushpin: '📌',
  round_pushpin: '📍',
  house: '🏠',
  hospital: '🏥',
  pill: '💊',
  stethoscope: '🩺',
  wave: '👋',
  tada: '🎉',
  sparkles: '✨',
  fire: '🔥',
  zzz: '💤',
  raising_hand: '🙋',
  point_right: '👉',
  leftwards_arrow_with_hook: '↩️',
  eyes: '👀',
  link: '🔗',
  lock: '🔒',
  key: '🔑',
  no_entry: '⛔',
  no_entry_sign: '🚫',
  electric_plug: '🔌',
  bust_in_silhouette: '👤',
  busts_in_silhouette: '👥',
  information_source: 'ℹ️',
  question: '❓',
  exclamation: '❗',
  heavy_plus_sign: '➕',
  arrow_right: '➡️',
  repeat: '🔁',
  mag: '🔍',
  inbox_tray: '📥',
  outbox_tray: '📤',
  large_green_circle: '🟢',
  large_yellow_circle: '🟡',
  red_circle: '🔴',
  large_blue_circle: '🔵',
  white_circle: '⚪',
  thumbsup: '👍',
  '+1': '👍',
  sunrise: '🌅',
  sun_with_face: '🌞',
  new: '🆕',
  speech_balloon: '💬',
  robot_face: '🤖',
  gear: '⚙️',
  stopwatch: '⏱️',
  // Codes the Care Actions app itself uses.
  thread: '🧵',
  sunny: '☀️',
  grey_question: '❔',
  page_facing_up: '📄',
  arrows_counterclockwise: '🔄',
};

/** Replace `:short_code:` with the emoji (input is already-escaped HTML; colons are untouched by escaping). */
export function replaceEmoji(html) {
  return html.replace(/:([a-z0-9_+-]+):/g, (whole, code) => EMOJI[code] ?? whole);
}

export function emojiFor(name) {
  return EMOJI[name] ?? `:${name}:`;
}

/** Pick one of a few avatar colour classes for an id (stable). */
export function colourClass(id) {
  let h = 0;
  for (const c of String(id)) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `av-${h % 8}`;
}

const ICONS = {
  home: '<path d="M3 9.5 10 3l7 6.5V17h-5v-5H8v5H3z" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/>',
  lock: '<rect x="4" y="9" width="12" height="8" rx="1.5" fill="currentColor"/><path d="M7 9V6.5a3 3 0 0 1 6 0V9" fill="none" stroke="currentColor" stroke-width="1.8"/>',
  clock:
    '<circle cx="10" cy="10" r="7" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M10 6v4l3 2" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/>',
  eye: '<path d="M1.5 10S5 4.5 10 4.5s8.5 5.5 8.5 5.5-3.5 5.5-8.5 5.5S1.5 10 1.5 10z" fill="none" stroke="currentColor" stroke-width="1.5"/><circle cx="10" cy="10" r="2.5" fill="currentColor"/>',
  reply: '<path d="M3 4h14v9H8l-4 3v-3H3z" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/>',
};

/** A small inline SVG icon for the page chrome (no icon fonts, no emoji font needed). */
export function icon(name) {
  return `<svg class="ico" viewBox="0 0 20 20" aria-hidden="true" focusable="false">${ICONS[name] ?? ''}</svg>`;
}
