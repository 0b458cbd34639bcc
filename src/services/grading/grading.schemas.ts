import { z } from 'zod';
import { contract } from '../contract-meta.ts';
import { bool, code, float, json, oneOf, text } from '../validation.ts';
import { presetTypes } from './grades.ts';

export const presetRef = z.object({ preset: code() });

/** `none` or empty: any language. */
const presetLanguage = text(0, 16);

/** JSON text (REST forms) or a native list (JSON bodies, GraphQL). */
const grades = json().pipe(
  z
    .array(
      z.object(
        {
          threshold: float(0, 100).optional(),
          grade: text(0, 64).optional(),
          text: text(0, 1024).optional(),
        },
        { error: 'must be an object {threshold, grade, text}' },
      ),
      { error: 'must be a list of {threshold, grade, text}' },
    )
    .max(50, 'must have at most 50 items'),
);

export const listPresets = z.object({
  quiz: contract(code().optional(), { description: 'at most one of quiz and exam; lists only presets usable on it and marks the current one' }),
  exam: contract(code().optional(), { description: 'at most one of quiz and exam' }),
  language: contract(text(2, 16).optional(), { description: 'default the language of the given Quiz set or exam; presets without a language are always included' }),
});

export const createPreset = z.object({
  title: text(1, 128),
  language: contract(presetLanguage.optional(), { description: 'default content language of the application owner' }),
  type: contract(oneOf(presetTypes), { description: 'custom: at least 2 items; go-nogo-custom: exactly 2; hungarian-school and hungarian-university: exactly 5' }),
  grades: contract(grades, {
    type: ['list', 'json'],
    description: 'ascending; the first item starts at 0 and its threshold is ignored; grade used only with custom, where each must be unique and non-empty',
  }),
  successfulAll: contract(bool().optional(), { default: false, description: 'custom only' }),
});

export const updatePreset = z.object({
  preset: code(),
  title: text(1, 128).optional(),
  language: presetLanguage.optional(),
  type: contract(oneOf(presetTypes).optional(), { description: 'cannot change once used' }),
  grades: contract(grades.optional(), { type: ['list', 'json'], description: 'whole list replaced' }),
  successfulAll: contract(bool().optional(), { description: 'dropped when the type changes away from custom; unchanged if omitted' }),
});
