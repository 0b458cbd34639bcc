import { describe, expect, it } from 'vitest';
import { instantLoops, isTimeZone, jsonLengthOver, parseJourneyGraph, type Issue } from './graph-validation.ts';
import { defaultJourneySettings } from './format.ts';

const codes = (issues: Issue[]) => issues.map((i) => i.code);
const start = { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'end' } };
const end = { node: 'end', type: 'end', config: { outcome: 'completed' } };

describe('parseJourneyGraph', () => {
  it('accepts a minimal graph and fills in the defaults', () => {
    const { graph, issues, ignored } = parseJourneyGraph({ nodes: [{ node: 'start', type: 'start', next: { done: 'end' } }, { node: 'end', type: 'end' }] });
    expect(issues).toEqual([]);
    expect(ignored).toEqual([]);
    expect(graph).toEqual({
      schema: 1,
      settings: defaultJourneySettings,
      nodes: [
        { node: 'start', type: 'start', config: { complete_on: 'finish' }, next: { done: 'end' } },
        { node: 'end', type: 'end', config: { outcome: 'completed' }, next: {} },
      ],
    });
  });

  it('reports every structural problem at once', () => {
    const { issues } = parseJourneyGraph({
      nodes: [
        start,
        { ...start, node: 'start2' },
        { node: 'bad key!', type: 'end' },
        { node: 'end', type: 'end' },
        { node: 'end', type: 'end' },
        { node: 'x', type: 'teleport' },
        { node: 'w', type: 'wait', config: { mode: 'duration', minutes: 5 }, next: { next: 'ghost', other: 'end' } },
        'not a node',
      ],
      schema: 2,
    });
    expect(codes(issues)).toEqual(
      expect.arrayContaining([
        'schema-unsupported', 'start-multiple', 'key-invalid', 'key-duplicate', 'type-invalid', 'next-unknown',
        'output-unknown', 'format-invalid', 'unreachable',
      ]),
    );
    expect(issues.find((i) => i.code === 'next-unknown')).toMatchObject({ level: 'error', node: 'w', output: 'next' });
    expect(issues.find((i) => i.code === 'unreachable')).toMatchObject({ level: 'warning', node: 'w' });
  });

  it('checks configs by type and condition rules field by field', () => {
    const { issues, ignored } = parseJourneyGraph({
      nodes: [
        { ...start, next: { done: 'c' }, foo: 1 },
        {
          node: 'c',
          type: 'condition',
          config: {
            branches: [
              {
                key: 'a',
                rules: [
                  { field: 'step.result', operator: 'between', value: [80, 20] },
                  { field: 'node.result', operator: 'gte', value: 50 },
                  { field: 'node.completed', param: 'start', operator: 'is_true', aggregate: 'best' },
                  { field: 'user.gender', operator: 'in', value: Array.from({ length: 65 }, (_, i) => `g${i}`) },
                  { field: 'step.result', operator: 'gte', value: 50, measure: 'percent' },
                  { field: 'date.hour', operator: 'eq', value: 10, time: '10:00' },
                  { field: 'date.weekday', operator: 'eq', value: 3, time: '25:00', timezone: 'Mars/Olympus' },
                  { field: 'step.grade', operator: 'gt', value: 'A', extra: true },
                ],
              },
            ],
            bogus: 1,
          },
          next: { a: 'end', else: 'end' },
        },
        { node: 'wt', type: 'wait', config: { mode: 'duration', minutes: 0 }, next: { next: 'end' } },
        { node: 'q', type: 'quiz', config: { quiz: 'qz_1', min_plays: 101 } },
        { node: 'n', type: 'notify', config: { target: 'everyone', message: 'x'.repeat(501) } },
        end,
      ],
    });
    const messages = issues.filter((i) => i.code !== 'unreachable' && i.code !== 'output-unconnected');
    expect(messages.map((i) => i.code)).toEqual([
      'config-invalid', // between [80, 20]
      'config-invalid', // node.result without param
      'config-invalid', // aggregate on node.completed
      'limit-exceeded', // in with 65 items
      'config-invalid', // measure on a non-skill field
      'config-invalid', // time on date.hour
      'config-invalid', // time 25:00
      'config-invalid', // timezone
      'config-invalid', // gt on a text field
      'config-invalid', // wait minutes 0
      'config-invalid', // min_plays 101
      'config-invalid', // target
      'limit-exceeded', // message
    ]);
    expect(messages.every((i) => i.level === 'error')).toBe(true);
    expect(messages[0]).toMatchObject({ node: 'c', output: 'a' });
    expect(ignored).toEqual(['nodes[0].foo', 'nodes[1].config.branches[0].rules[7].extra', 'nodes[1].config.bogus']);
  });

  it('takes node.skill as <node key>:<skill identifier>, the form the engine reads', () => {
    const condition = (param: string) => ({
      node: 'c',
      type: 'condition',
      config: { branches: [{ key: 'b', match: 'all', rules: [{ field: 'node.skill', param, operator: 'gte', value: 50, measure: 'percent' }] }] },
      next: { b: 'end', else: 'end' },
    });
    const problems = (param: string) => parseJourneyGraph({ nodes: [{ ...start, next: { done: 'c' } }, condition(param), end] }).issues.filter((i) => i.level === 'error');
    expect(problems('start:algebra')).toEqual([]);
    expect(codes(problems('start'))).toEqual(['config-invalid']);
    expect(codes(problems('nowhere:algebra'))).toEqual(['config-invalid']);
  });

  it('finds loops made only of instant nodes, and not those with a wait in them', () => {
    const flag = (node: string, next: string) => ({ node, type: 'flag', config: { name: 'f', value: 'v' }, next: { next } });
    const { issues } = parseJourneyGraph({ nodes: [{ ...start, next: { done: 'a' } }, flag('a', 'b'), flag('b', 'a'), end] });
    expect(issues.filter((i) => i.code === 'instant-loop')).toEqual([
      { level: 'error', code: 'instant-loop', node: 'a', output: null, message: expect.stringContaining("'a', 'b'") },
    ]);
    expect(instantLoops([{ node: 'm', type: 'mark', next: { next: 'm' } }])).toEqual([['m']]);
    expect(instantLoops([
      { node: 'm', type: 'mark', next: { next: 'w' } },
      { node: 'w', type: 'wait', next: { next: 'm' } },
    ])).toEqual([]);
  });

  it('merges settings over the current ones and reports bad ones', () => {
    const base = { ...defaultJourneySettings, title: 'Old', restartable: true };
    expect(parseJourneyGraph({ nodes: [start, end], settings: '{"max_visits": 7}' }, base).graph.settings).toEqual({ ...base, max_visits: 7 });
    const { issues, ignored } = parseJourneyGraph({ nodes: [start, end], settings: { max_visits: 51, title: 'x'.repeat(256), educators: Array.from({ length: 11 }, (_, i) => `usr_${i}`), colour: 'red' } }, base);
    expect(codes(issues)).toEqual(['limit-exceeded', 'settings-invalid', 'limit-exceeded']);
    expect(ignored).toEqual(['settings.colour']);
    expect(codes(parseJourneyGraph({ nodes: '[not json', settings: '{' }).issues)).toEqual(['format-invalid', 'format-invalid', 'start-missing']);
  });

  it('takes IANA time zone names only', () => {
    expect(isTimeZone('Europe/Vienna')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('+01:00')).toBe(false);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('jsonLengthOver', () => {
  it('tells a value longer than the limit as JSON from a shorter one, JSON text by its length', () => {
    const values = [[start, end], { settings: { title: 'Path', educators: ['usr_a', 'usr_b'] } }, 'x'.repeat(1000), [1, true, null, [[]], {}]];
    for (const value of values) {
      const length = JSON.stringify(value).length;
      expect(jsonLengthOver(value, Math.ceil(length * 1.5)), JSON.stringify(value)).toBe(false);
      expect(jsonLengthOver(value, Math.floor(length / 1.5)), JSON.stringify(value)).toBe(true);
    }
  });

  it('stops counting at the limit: a list of a billion items costs no more than the limit', () => {
    // Sparse, so it takes no memory; walking it to the end would take minutes.
    expect(jsonLengthOver(new Array(1_000_000_000), 1000)).toBe(true);
    expect(jsonLengthOver({ nodes: new Array(1_000_000_000) }, 1000)).toBe(true);
  });
});
