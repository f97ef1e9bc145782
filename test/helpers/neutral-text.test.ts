import { describe, expect, it } from 'vitest';
import { neutralTextProblems } from './neutral-text.js';

const known = { residents: ['Edith Clarke', 'Harold Finch'], tasks: ['Medication review for Edith Clarke with the GP', 'Order pressure-relieving mattress'] };

describe('neutralTextProblems', () => {
  it('passes a line with a number, a person of staff and a count', () => {
    expect(neutralTextProblems('Action #301 was completed by <@U0PRIYA>', known)).toEqual([]);
    expect(neutralTextProblems('Action #301 — completed; details in the care system', known)).toEqual([]);
    expect(neutralTextProblems('Your care actions for Tuesday 10 March: 2 overdue, 3 due today, 1 urgent', known)).toEqual([]);
  });

  it('finds a resident by full name or a part of it, whatever the case and punctuation', () => {
    expect(neutralTextProblems('New action for EDITH CLARKE', known)).toEqual(['names the resident "Edith Clarke"']);
    expect(neutralTextProblems("Finch's review is due", known)).toEqual(['names the resident "Harold Finch" (finch)']);
  });

  it('finds a task whole, escaped as Slack shows it, or four of its words in a row', () => {
    expect(neutralTextProblems('Created: Action #4: Order pressure\u2010relieving mattress', known)).toEqual([
      'carries the task "Order pressure-relieving mattress"',
    ]);
    expect(neutralTextProblems('Urgent: medication review for the home', known)).toEqual([]);
    expect(neutralTextProblems('Action #9: Medication review for Edith', known)).toEqual([
      'names the resident "Edith Clarke" (edith)',
      'carries text of the task "Medication review for Edith Clarke with the GP" ("medication review for edith")',
    ]);
  });
});
