/**
 * Reading docs/clinical-safety.md's hazard log, and the test names a test file holds: pure functions over
 * text, so test/docs/clinical-safety.test.ts can check the log against the real test files.
 *
 * The log's shape: a `### Hnn · title` heading per hazard, then top-level bullets `- **Field:** value`.
 * Under `- **Controls:**`, each control is a nested bullet (`  - `) ending with its tests, each written as
 * `test/<path>.test.ts › <test name>` in backticks.
 */

export const SEVERITIES = ['Minor', 'Significant', 'Considerable', 'Major', 'Catastrophic'] as const;
export const LIKELIHOODS = ['Very low', 'Low', 'Medium', 'High', 'Very high'] as const;

/** DCB0129's risk matrix: MATRIX[likelihood][severity index]. */
export const MATRIX: Record<(typeof LIKELIHOODS)[number], readonly number[]> = {
  'Very high': [3, 4, 4, 5, 5],
  High: [2, 3, 3, 4, 5],
  Medium: [2, 2, 3, 3, 4],
  Low: [1, 2, 2, 3, 4],
  'Very low': [1, 1, 2, 2, 3],
};

export interface TestRef {
  file: string;
  name: string;
}

export interface Control {
  text: string;
  tests: TestRef[];
  /** Backticked `test/…` words that are not a whole `file › name` reference. */
  malformed: string[];
}

export interface Rating {
  severity: string;
  likelihood: string;
  risk: number;
}

export interface Hazard {
  id: string;
  title: string;
  /** Each top-level field by its name (Hazard, Cause, Effect, Initial risk, Residual gaps, Residual risk…). */
  fields: Map<string, string>;
  controls: Control[];
}

const REF = /`(test\/[^`\s]+\.test\.ts) › ([^`]+)`/g;

/** The hazards under the log's `### Hnn` headings, in order. */
export function parseHazardLog(markdown: string): Hazard[] {
  const sections = markdown.split(/^### /m).slice(1);
  return sections
    .map((section) => {
      const [heading = '', ...lines] = section.split('\n');
      const head = /^(H\d+)\s*·\s*(.+)$/.exec(heading.trim());
      if (!head) return undefined;
      return { id: head[1]!, title: head[2]!.trim(), ...fieldsOf(lines.filter((l) => !l.startsWith('## '))) };
    })
    .filter((h): h is Hazard => h !== undefined);
}

function fieldsOf(lines: string[]): { fields: Map<string, string>; controls: Control[] } {
  const fields = new Map<string, string>();
  const controls: Control[] = [];
  let field: string | undefined;
  for (const line of lines) {
    if (/^## /.test(line)) break;
    const top = /^- \*\*([^*]+):\*\*\s*(.*)$/.exec(line);
    if (top) {
      field = top[1]!;
      fields.set(field, top[2]!);
      continue;
    }
    if (field === undefined || line.trim() === '') continue;
    if (field === 'Controls' && /^ {2}- /.test(line)) {
      controls.push({ text: line.replace(/^ {2}- /, ''), tests: [], malformed: [] });
    } else if (field === 'Controls' && controls.length > 0) {
      controls[controls.length - 1]!.text += ` ${line.trim()}`;
    } else {
      fields.set(field, `${fields.get(field) ?? ''} ${line.trim()}`.trim());
    }
  }
  for (const control of controls) {
    control.tests = [...control.text.matchAll(REF)].map((m) => ({ file: m[1]!, name: m[2]! }));
    const whole = new Set([...control.text.matchAll(REF)].map((m) => m[0]));
    control.malformed = [...control.text.matchAll(/`test\/[^`]*`/g)].map((m) => m[0]).filter((w) => !whole.has(w));
  }
  return { fields, controls };
}

/** `severity X, likelihood Y, risk N` read from a rating field, or undefined when it is not in that shape. */
export function parseRating(value: string | undefined): Rating | undefined {
  const m = /^severity ([A-Za-z ]+?), likelihood ([A-Za-z ]+?), risk (\d+)\b/.exec(value ?? '');
  return m ? { severity: m[1]!, likelihood: m[2]!, risk: Number(m[3]) } : undefined;
}

/** What is wrong with a rating against the matrix's words and numbers (empty when nothing). */
export function ratingProblems(rating: Rating | undefined): string[] {
  if (!rating) return ['not written as "severity <word>, likelihood <word>, risk <1–5>"'];
  const problems: string[] = [];
  const s = SEVERITIES.indexOf(rating.severity as (typeof SEVERITIES)[number]);
  const row = MATRIX[rating.likelihood as (typeof LIKELIHOODS)[number]];
  if (s < 0) problems.push(`severity "${rating.severity}" is not one of ${SEVERITIES.join(', ')}`);
  if (!row) problems.push(`likelihood "${rating.likelihood}" is not one of ${LIKELIHOODS.join(', ')}`);
  if (rating.risk < 1 || rating.risk > 5) problems.push(`risk ${rating.risk} is not 1–5`);
  else if (s >= 0 && row && row[s] !== rating.risk) {
    problems.push(`risk ${rating.risk} is not the matrix's ${row[s]} for ${rating.severity} × ${rating.likelihood}`);
  }
  return problems;
}

/** A test call: it or test, optionally marked only/concurrent/sequential/fails, or run on a condition (`it.skipIf(cond)(…)`, `it.runIf(cond)(…)`, as the two-database files write them). */
const TEST_CALL = /(?<![\w.$])(?:it|test)(?:\.(?:only|concurrent|sequential|fails))?(?:\.(?:skipIf|runIf)\([^()]*\))?\(\s*(['"`])/g;

/**
 * The names of the tests a test file's text declares with it(…) or test(…) (inside describe blocks or not),
 * written as a plain string literal (also under it.skipIf/runIf); it.skip, it.todo, it.each and names built with ${…} are not counted.
 */
export function testNames(source: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(TEST_CALL)) {
    const literal = readLiteral(source, m.index + m[0].length - 1);
    if (literal !== undefined) names.push(literal);
  }
  return names;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };

/** The value of the string literal whose opening quote is at `start`, or undefined (a template with ${…}). */
function readLiteral(source: string, start: number): string | undefined {
  const quote = source[start]!;
  let value = '';
  for (let i = start + 1; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[++i] ?? '';
      value += ESCAPES[next] ?? next;
    } else if (c === quote) {
      return value;
    } else if (quote === '`' && c === '$' && source[i + 1] === '{') {
      return undefined;
    } else if (c === '\n' && quote !== '`') {
      return undefined;
    } else {
      value += c;
    }
  }
  return undefined;
}
