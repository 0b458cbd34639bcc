import { z } from 'zod';
import { bool, code, oneOf, text, url } from '../validation.ts';

export const integrationTypes = ['api', 'lms_a', 'lms_b', 'lms_c', 'lms_d', 'lms'] as const;
export type IntegrationType = (typeof integrationTypes)[number];

export const integrationRef = z.object({ integration: code() });

export const createIntegration = z.object({
  title: text(1, 255),
  description: text(0, 1024).optional(),
  type: oneOf(integrationTypes).default('api'),
  /** `1.0/1.1` names the compatible pair (1.0 and 1.1 are accepted too); it is stored as `1.0/1.1`. */
  lti: oneOf(['1.0', '1.1', '1.0/1.1', '1.3']).optional(),
  platform: url().optional(),
  organization: code().optional(),
});
export type CreateIntegrationInput = z.input<typeof createIntegration>;

export const updateIntegration = z.object({
  integration: code(),
  active: bool().optional(),
  /** `none` or empty removes the integration from its organization. */
  organization: text(0, 64).optional(),
});
