/** What a reader of the reference (and a tool using it) learns about one operation. */
export interface OperationProse {
  /** One line: what the call does. */
  summary: string;
  /** Markdown: what it does, its rules and defaults, and how the service answers what the contract leaves open. */
  description: string;
  /** A typical call's arguments (credentials left out), as a JSON body would carry them. */
  example: Readonly<Record<string, unknown>>;
  /** Markdown: details a caller rarely needs (edge cases, GraphQL counterpart). */
  notes?: string;
}

/** Prose keyed `METHOD endpoint`, e.g. `GET user:me`. */
export type ProseTable = Readonly<Record<string, OperationProse>>;

/** Paragraphs of markdown, one string each. */
export const paragraphs = (...texts: string[]): string => texts.join('\n\n');

/** Identification strings used by the examples, one per kind, so examples read alike. */
export const EXAMPLE = Object.freeze({
  user: 'usr_3k9x0c2m1q7b0a',
  otherUser: 'usr_8d2f6h1j4l0n9p',
  organization: 'org_5t7v9x1z3b5d7f',
  department: 'Sales',
  class: 'cls_2m4o6q8s0u2w4y',
  otherClass: 'cls_7h9j1l3n5p7r9t',
  integration: 'int_6b8d0f2h4j6l8n',
  webhook: 'whk_1q3s5u7w9y1a3c',
  competency: 'cmp_4e6g8i0k2m4o6q',
  exam: 'exm_9r1t3v5x7z9b1d',
  otherExam: 'exm_0c2e4g6i8k0m2o',
  quiz: 'qz_3f5h7j9l1n3p5r',
  otherQuiz: 'qz_8u0w2y4a6c8e0g',
  question: 'qst_5i7k9m1o3q5s7u',
  play: 'ply_2v4x6z8b0d2f4h',
  preset: 'gp_6j8l0n2p4r6t8v',
  tag: 'tag_1w3y5a7c9e1g3i',
});
