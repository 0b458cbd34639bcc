import { describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { operations } from '../../src/rest/operations.ts';
import { argumentsSchema, isCustomFieldPattern } from '../../src/rest/json-schema.ts';
import { introductions, prose, proseOf } from '../../src/rest/operations/prose/index.ts';

const key = (o: { method: string; endpoint: string }) => `${o.method} ${o.endpoint}`;

/** Words that send a reader to a text outside the project. */
const OUTSIDE_REFERENCE = [/\bdocument [ab]\b/i, /\bthe documents?\b/i, /\bsections? \d/i, /§/, /\.\.\/shared/, /\bREADME\b/, /\bnot shown\b/i];

function texts(): [string, string][] {
  const all: [string, string][] = Object.entries(introductions).map(([name, text]) => [`introduction ${name}`, text]);
  for (const [name, entry] of Object.entries(prose)) {
    all.push([`${name} summary`, entry.summary], [`${name} description`, entry.description]);
    if (entry.notes) all.push([`${name} notes`, entry.notes]);
  }
  return all;
}

describe('operation prose', () => {
  it('covers every operation of the catalogue, and nothing else', () => {
    const keys = new Set(operations.map(key));
    const missing = [...keys].filter((k) => !prose[k]);
    const orphaned = Object.keys(prose).filter((k) => !keys.has(k));
    expect(missing).toEqual([]);
    expect(orphaned).toEqual([]);
    expect(Object.keys(prose)).toHaveLength(operations.length);
  });

  it('gives every operation a one-line summary, a description and an example', () => {
    for (const operation of operations) {
      const entry = proseOf(operation)!;
      expect(entry.summary, key(operation)).toMatch(/^\S.{5,90}$/);
      expect(entry.summary, key(operation)).not.toContain('\n');
      expect(entry.description.length, key(operation)).toBeGreaterThan(40);
      expect(typeof entry.example, key(operation)).toBe('object');
    }
  });

  it('has an introduction for every area (OpenAPI tag) and none for an area that does not exist', () => {
    const sections = new Set(operations.map((o) => o.section));
    expect(Object.keys(introductions).sort()).toEqual([...sections].sort());
    for (const [name, text] of Object.entries(introductions)) expect(text.length, name).toBeGreaterThan(100);
  });

  it('never refers the reader to a text outside the project', () => {
    const offending = texts().filter(([, text]) => OUTSIDE_REFERENCE.some((re) => re.test(text)));
    expect(offending.map(([name, text]) => `${name}: ${OUTSIDE_REFERENCE.find((re) => re.test(text))}`)).toEqual([]);
    // The check itself catches such a reference.
    expect(OUTSIDE_REFERENCE.some((re) => re.test('as Document B, section 4 says'))).toBe(true);
  });

  it('gives examples only arguments the operation declares, with every required one', () => {
    for (const operation of operations) {
      const example = proseOf(operation)!.example;
      const declared = operation.arguments.filter((a) => !isCustomFieldPattern(a)).map((a) => a.name);
      const custom = operation.arguments.some(isCustomFieldPattern);
      const unknown = Object.keys(example).filter((name) => !declared.includes(name) && !(custom && /^custom_[a-z0-9_]+$/.test(name)));
      expect(unknown, key(operation)).toEqual([]);
      const required = operation.arguments.filter((a) => a.required && !isCustomFieldPattern(a)).map((a) => a.name);
      expect(required.filter((name) => !(name in example)), key(operation)).toEqual([]);
    }
  });

  it("gives examples that the operation's argument schema accepts", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const rejected: string[] = [];
    for (const operation of operations) {
      const validate = ajv.compile(argumentsSchema(operation));
      if (!validate(proseOf(operation)!.example)) rejected.push(`${key(operation)}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(rejected).toEqual([]);
    // A wrong type is refused by the same check.
    const users = operations.find((o) => key(o) === 'GET users')!;
    expect(ajv.compile(argumentsSchema(users))({ limit: 'many' })).toBe(false);
  });
});
