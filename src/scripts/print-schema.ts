import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from '../graphql/schema.ts';

/** Where the checked-in schema lives; CI compares it with the one the code builds. */
export const schemaFile = fileURLToPath(new URL('../../schema/schema.graphql', import.meta.url));

/** The schema as SDL, sorted so the file only changes when the schema does. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(schemaFile, printedSchema());
  console.log(`Wrote ${schemaFile}`);
}
