import * as settings from '../../services/exams/settings.service.ts';
import * as fields from '../../services/exams/fields.service.ts';
import type { SettingsView } from '../../services/exams/settings.model.ts';
import { toContractName } from '../names.ts';
import { datetime } from '../format.ts';
import type { Handler } from './types.ts';

/** `exam:settings` and `exam:fields`. */

/** The settings record: contract names in the order of the settings table; settings not returned are left out. */
const settingsRecord = ({ exam, settings: view }: { exam: { id: string }; settings: SettingsView }) => {
  const record: Record<string, unknown> = { exam: exam.id };
  for (const [name, value] of Object.entries(view)) {
    if (value !== undefined) record[toContractName(name)] = value instanceof Date ? datetime(value) : value;
  }
  return record;
};

const fieldsRecord = ({ exam, fields: view }: { exam: { id: string }; fields: fields.FieldsView }) => ({ exam: exam.id, ...view });

export const examSettingsRoutes: Record<string, Handler> = {
  'GET exam:settings': async (ctx, args) => settingsRecord(await settings.getSettings(ctx, args)),
  'POST exam:settings': async (ctx, args) => settingsRecord(await settings.updateSettings(ctx, args)),
  'PUT exam:settings': async (ctx, args) => {
    const { exam, source } = await settings.copySettings(ctx, args, 'replace');
    return { exam: exam.id, source: source.id };
  },
  'PATCH exam:settings': async (ctx, args) => {
    const { exam, source } = await settings.copySettings(ctx, args, 'fill');
    return { exam: exam.id, source: source.id };
  },
  'GET exam:fields': async (ctx, args) => fieldsRecord(await fields.getFields(ctx, args)),
  'POST exam:fields': async (ctx, args) => fieldsRecord(await fields.updateFields(ctx, args)),
  'DELETE exam:fields': async (ctx, args) => ({ exam: (await fields.deleteFields(ctx, args)).exam.id, success: true }),
};
