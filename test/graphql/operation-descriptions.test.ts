import { describe, expect, it } from 'vitest';
import { GraphQLInputObjectType, GraphQLObjectType } from 'graphql';
import { schema } from '../../src/graphql/schema.ts';
import { mirrorDescription } from '../../src/graphql/operation-prose.ts';

const mutation = (name: string) => (schema.getType('Mutation') as GraphQLObjectType).getFields()[name]!;
const input = (name: string) => schema.getType(name) as GraphQLInputObjectType;

describe('GraphQL descriptions of fields that mirror a REST operation', () => {
  it("carry the operation's rules from the same prose the REST reference shows", () => {
    expect(mutation('closeExamRound').description).toContain('Refused with 403 `ROUND_FROZEN` while `freeze_round` is on');
    expect(input('CreateExamInput').description).toContain('`start` < `end`');
    expect(mutation('updateExamSettings').description).toContain('`hide_grade` needs `hide_points`');
    expect(input('CreateDepartmentInput').description).toContain('at most 5 users, each a member (`NOT_A_MEMBER`)');
  });

  it('leave out what only the REST call answers, and what the REST prose says about GraphQL', () => {
    const update = input('UpdateExamInput').description!;
    expect(update).toContain('`start` is frozen once the exam has any result');
    expect(update).not.toContain('an `enabled` sent here is ignored');
    const round = mutation('closeExamRound').description!;
    expect(round).not.toContain('Answers `exam`');
    expect(mirrorDescription('Lead.', 'POST organization:department')).not.toMatch(/Answers `organization`/);
    expect(() => mirrorDescription('Lead.', 'POST nothing:here')).toThrow('no prose for the operation POST nothing:here');
  });
});
