import { z } from 'zod';
import { contract } from '../contract-meta.ts';
import { bool, code, oneOf, text, url } from '../validation.ts';

export const integrationTypes = ['api', 'lms_a', 'lms_b', 'lms_c', 'lms_d', 'lms'] as const;
export type IntegrationType = (typeof integrationTypes)[number];

export const integrationRef = z.object({ integration: code() });

export const createIntegration = z.object({
  title: text(1, 255),
  description: text(0, 1024).optional(),
  type: oneOf(integrationTypes).default('api'),
  /** `1.0/1.1` names the compatible pair (1.0 and 1.1 are accepted too); it is stored as `1.0/1.1`. */
  lti: contract(oneOf(['1.0', '1.1', '1.0/1.1', '1.3']).optional(), { description: 'required for LMS integrations' }),
  platform: contract(url().optional(), { description: 'LMS platform URL; required for LMS integrations' }),
  organization: contract(code().optional(), { description: 'organization of the application owner only; for organizational members always the organization of the user' }),
});
export type CreateIntegrationInput = z.input<typeof createIntegration>;

export const updateIntegration = z.object({
  integration: code(),
  active: bool().optional(),
  /** `none` or empty removes the integration from its organization. */
  organization: contract(text(0, 64).optional(), { format: 'code', description: 'only an organization of the application owner; only the owner or an administrator may change it; `none` or empty removes the integration from its organization; for organizational members always their organization' }),
});
