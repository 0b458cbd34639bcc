import { z } from 'zod';
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
  quiz: code().optional(),
  exam: code().optional(),
  language: text(2, 16).optional(),
});

export const createPreset = z.object({
  title: text(1, 128),
  language: presetLanguage.optional(),
  type: oneOf(presetTypes),
  grades,
  successfulAll: bool().optional(),
});

export const updatePreset = z.object({
  preset: code(),
  title: text(1, 128).optional(),
  language: presetLanguage.optional(),
  type: oneOf(presetTypes).optional(),
  grades: grades.optional(),
  successfulAll: bool().optional(),
});
