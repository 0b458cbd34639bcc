import { randomBytes } from 'node:crypto';

/** Prefixes of identification strings; the prefix also tells the GraphQL `Node` its type. */
export const idPrefixes = {
  User: 'usr',
  Integration: 'int',
  Organization: 'org',
  AssumeToken: 'atk',
  LoginLink: 'lnk',
  CustomField: 'cfd',
  AuditEvent: 'aud',
  Notification: 'ntf',
  Department: 'dep',
  Class: 'cls',
  ClassAssignment: 'asg',
  LibraryDocument: 'doc',
  Competency: 'cmp',
  Requirement: 'req',
  Webhook: 'whk',
  WebhookDelivery: 'dlv',
  Course: 'crs',
  Event: 'evt',
  Scorm: 'scm',
  Video: 'vid',
  Tag: 'tag',
  QuizSet: 'qz',
  QuizGroup: 'qgr',
  Question: 'qst',
  Skill: 'skl',
  GradingPreset: 'gp',
  StoredFile: 'fil',
  QuestionExport: 'qex',
  ResultsExport: 'rex',
  Exam: 'exm',
  Play: 'ply',
  Certificate: 'crt',
  CertificateLink: 'crl',
  Journey: 'jrn',
  JourneyVisit: 'jvs',
  JourneyEvent: 'jev',
} as const;

export type IdType = keyof typeof idPrefixes;

const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Random text over [0-9a-z]; rejection sampling keeps every character equally likely. */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 252 && out.length < length) out += alphabet[byte % 36];
    }
  }
  return out;
}

/** A new identification string such as `usr_3k9x0c2m1q7b`. */
export function newId(type: IdType): string {
  return `${idPrefixes[type]}_${randomToken(14)}`;
}

const typeByPrefix = new Map<string, IdType>(Object.entries(idPrefixes).map(([t, p]) => [p, t as IdType]));

/** The type an identification string belongs to, or undefined if it is not one of ours. */
export function typeOfId(id: string): IdType | undefined {
  const sep = id.indexOf('_');
  return sep > 0 ? typeByPrefix.get(id.slice(0, sep)) : undefined;
}
