import type { Context } from '../../context.ts';
import type { Prisma, Question, Skill } from '../../generated/prisma/client.ts';
import { ArgumentError } from '../../errors.ts';
import { may } from '../../auth/policy.ts';
import { newId } from '../../ids.ts';
import { audit } from '../audit/audit.service.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { parseInput } from '../validation.ts';
import { findQuestion } from './access.ts';
import { withSelection } from './questions.service.ts';
import type { Selection } from '../selection.ts';
import * as s from './questions.schemas.ts';

/**
 * Skills: what a question trains, named by an identifier unique per owner. A skill belongs to
 * the user who created it (instance administrators manage all); attaching one to a question also
 * needs modify permission on the question. The contract reads them (`quiz:skills`, `exam:skills`).
 */

export function visibleSkillsWhere(ctx: Context): Prisma.SkillWhereInput {
  return may(ctx.viewer.user, 'instance:records:read-all') ? {} : { ownerId: ctx.viewer.user.id };
}

/** The viewer's skills (administrators: all), by identifier. */
export async function listSkills(ctx: Context, query: Selection<'Skill'> = {}): Promise<Skill[]> {
  return ctx.db.skill.findMany({ ...query, where: visibleSkillsWhere(ctx), orderBy: [{ identifier: 'asc' }, { id: 'asc' }] });
}

async function findSkill(ctx: Context, code: string): Promise<Skill> {
  // Another user's skill is answered as one that does not exist.
  const skill = await ctx.db.skill.findFirst({ where: { AND: [{ id: code }, visibleSkillsWhere(ctx)] } });
  if (!skill) throw new ArgumentError('skill', `no skill with identification string '${code}'`, 'NOT_FOUND');
  return skill;
}

const identifierTaken = () => new ArgumentError('identifier', 'is taken by another of your skills', 'IDENTIFIER_TAKEN');

/** A write of a skill: one transaction with its audit record; a taken identifier is refused. */
async function write<T>(ctx: Context, action: string, run: (tx: Prisma.TransactionClient) => Promise<T & { id: string }>): Promise<T> {
  try {
    return await ctx.db.$transaction(async (tx) => {
      const result = await run(tx);
      await audit(ctx, tx, action, result.id);
      return result;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'identifier')) throw identifierTaken();
    throw error;
  }
}

export async function createSkill(ctx: Context, raw: Record<string, unknown>, query: Selection<'Skill'> = {}): Promise<Skill> {
  const input = parseInput(s.skillInput, raw);
  return write(ctx, 'skill.create', (tx) =>
    tx.skill.create({ ...query, data: { id: newId('Skill'), ownerId: ctx.viewer.user.id, identifier: input.identifier, title: input.title, description: input.description || null } }),
  );
}

export async function updateSkill(ctx: Context, raw: Record<string, unknown>, query: Selection<'Skill'> = {}): Promise<Skill> {
  const input = parseInput(s.skillUpdate, raw);
  const skill = await findSkill(ctx, input.skill);
  const data: Prisma.SkillUpdateInput = {};
  if (input.title !== undefined) data.title = input.title;
  if (input.description !== undefined) data.description = input.description || null;
  return write(ctx, 'skill.update', (tx) => tx.skill.update({ ...query, where: { id: skill.id }, data }));
}

/** Deletes a skill; it is detached from every question. */
export async function deleteSkill(ctx: Context, raw: Record<string, unknown>): Promise<Skill> {
  const skill = await findSkill(ctx, parseInput(s.skillRef, raw).skill);
  return write(ctx, 'skill.delete', (tx) => tx.skill.delete({ where: { id: skill.id } }));
}

async function link(ctx: Context, raw: Record<string, unknown>): Promise<{ question: Question; skill: Skill }> {
  const input = parseInput(s.skillLink, raw);
  const question = await findQuestion(ctx, input.question, 'question:update');
  return { question, skill: await findSkill(ctx, input.skill) };
}

/** Attaches a skill to a question; attaching it again changes nothing. */
export async function attachSkill(ctx: Context, raw: Record<string, unknown>, query?: Selection<'Question'>): Promise<Question> {
  const { question, skill } = await link(ctx, raw);
  return write(ctx, 'question.skill.attach', async (tx) => {
    await tx.questionSkill.createMany({ data: [{ questionId: question.id, skillId: skill.id }], skipDuplicates: true });
    return withSelection(tx, question, query);
  });
}

export async function detachSkill(ctx: Context, raw: Record<string, unknown>, query?: Selection<'Question'>): Promise<Question> {
  const { question, skill } = await link(ctx, raw);
  return write(ctx, 'question.skill.detach', async (tx) => {
    await tx.questionSkill.deleteMany({ where: { questionId: question.id, skillId: skill.id } });
    return withSelection(tx, question, query);
  });
}
