import * as grading from '../../services/grading/grading.service.ts';
import type { PresetView } from '../../services/grading/grading.service.ts';
import { compact } from '../format.ts';
import type { Handler } from './types.ts';

/** The fields of a preset shared by lists and single reads. */
const presetSummary = (v: PresetView) => ({
  preset: v.preset.id,
  title: v.preset.title,
  type: v.preset.type,
  language: v.preset.language,
  configurable: v.configurable,
  certificates: v.certificates,
  own: v.own,
  organization: v.preset.organizationId,
});

const presetRecord = (v: PresetView) =>
  compact({
    ...presetSummary(v),
    used: v.used,
    grades: v.grades.map((g) => compact({ threshold: g.threshold, grade: g.grade, text: g.text })),
    successful_all: v.preset.type === 'custom' ? v.preset.successfulAll : undefined,
  });

export const gradingRoutes: Record<string, Handler> = {
  'GET quiz:grading-presets': async (ctx, args) => {
    const { quiz, exam, presets } = await grading.listPresets(ctx, args);
    return compact({ quiz: quiz?.id, exam: exam?.id, presets: presets.map((v) => compact({ ...presetSummary(v), current: v.current })) });
  },
  'GET quiz:grading-preset': async (ctx, args) => presetRecord(await grading.getPreset(ctx, args)),
  'POST quiz:grading-preset': async (ctx, args) => ({ preset: (await grading.createPreset(ctx, args)).id }),
  'PATCH quiz:grading-preset': async (ctx, args) => presetRecord(await grading.updatePreset(ctx, args)),
  'DELETE quiz:grading-preset': async (ctx, args) => ({ preset: (await grading.deletePreset(ctx, args)).id, success: true }),
};
