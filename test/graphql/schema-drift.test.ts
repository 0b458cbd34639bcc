import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printedSchema, schemaFile } from '../../src/scripts/print-schema.ts';
import { generateOperations, generatedFile } from '../../codegen.ts';

describe('checked-in GraphQL files', () => {
  it('schema/schema.graphql is the schema the code builds', () => {
    const checkedIn = readFileSync(schemaFile, 'utf8');
    expect(checkedIn === printedSchema(), 'schema/schema.graphql is out of date: run `npm run schema:print` and check the file in').toBe(true);
  });

  it('schema/operations/generated.ts is what codegen makes of the schema and the operations', async () => {
    const checkedIn = readFileSync(generatedFile, 'utf8');
    const fresh = await generateOperations();
    expect(checkedIn === fresh, 'schema/operations/generated.ts is out of date: run `npm run codegen` and check the file in').toBe(true);
  });
});
