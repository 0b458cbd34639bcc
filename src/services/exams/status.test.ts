import { describe, expect, it } from 'vitest';
import { deriveStatus } from './status.ts';

/** Every row of the status table (GET `exam:status`), at fixed moments. */
const exam = { active: true, start: new Date('2030-01-01T08:00:00Z'), end: new Date('2030-01-31T20:00:00Z'), deadline: new Date('2030-01-20T00:00:00Z') };
const calm = { testsPaused: false, viewResultsStart: null };
const review = { testsPaused: false, viewResultsStart: new Date('2030-01-25T00:00:00Z') };
const at = (iso: string) => new Date(iso);

describe('the exam status table', () => {
  it.each([
    ['1: at the end', exam, calm, '2030-01-31T20:00:00Z', 'EXPIRED'],
    ['1: after the end, even switched off', { ...exam, active: false }, calm, '2030-02-01T00:00:00Z', 'EXPIRED'],
    ['1: after the end, even in review', exam, review, '2030-02-01T00:00:00Z', 'EXPIRED'],
    ['2: switched off inside the period', { ...exam, active: false }, review, '2030-01-26T00:00:00Z', 'INACTIVE'],
    ['3: before the start', exam, calm, '2030-01-01T07:59:59Z', 'INACTIVE'],
    ['4: the viewing period has begun', exam, review, '2030-01-25T00:00:00Z', 'REVIEW'],
    ['4: review wins over paused tests', exam, { ...review, testsPaused: true }, '2030-01-26T00:00:00Z', 'REVIEW'],
    ['5: past the deadline', exam, calm, '2030-01-20T00:00:01Z', 'PAUSED'],
    ['5: tests paused', exam, { ...calm, testsPaused: true }, '2030-01-10T00:00:00Z', 'PAUSED'],
    ['5: the viewing period not yet begun', exam, { ...review, testsPaused: true }, '2030-01-24T23:59:59Z', 'PAUSED'],
    ['6: at the start', exam, calm, '2030-01-01T08:00:00Z', 'ACTIVE'],
    ['6: at the deadline itself', exam, calm, '2030-01-20T00:00:00Z', 'ACTIVE'],
    ['6: no deadline', { ...exam, deadline: null }, calm, '2030-01-30T00:00:00Z', 'ACTIVE'],
  ] as const)('row %s', (_row, e, settings, now, status) => {
    expect(deriveStatus(e, settings, at(now))).toBe(status);
  });
});
