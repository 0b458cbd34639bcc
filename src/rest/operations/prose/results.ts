import { EXAMPLE as X, paragraphs as p, type ProseTable } from './types.ts';

const READING =
  'Reading needs report on the exam (Quiz set), or being the user. For the lists, a caller who may not view the exam (Quiz set) gets `NOT_FOUND`, one who may view it but lacks report `PERMISSION_DENIED`; an unknown user simply has no results.';

/** Results, exports and certificates. */
export const resultsProse: ProseTable = {
  'GET quiz:results:play': {
    summary: 'Read the detailed result of a play',
    description: p(
      'Answers the result: user, times, questions and points totals, `valid` (finished and every answer evaluated), `successful` and `grade` (null while answers await grading or when the grading decides nothing), `attempt` for exam plays, and `questions` in the play\'s order (`time_answer` only where an answer was given, `points` 0 until scored).',
      'A play the caller may not read answers `NOT_FOUND` exactly like a nonexistent id. Reading needs report on the exam (Quiz set), or being the user.',
    ),
    example: { play: X.play },
  },
  'DELETE quiz:results:play': {
    summary: 'Archive an exam result, or forget a practice result',
    description: p(
      'On an exam result it archives it: control on the exam, the exam\'s `archive` setting on (else 403 `ARCHIVE_DISABLED`), and only the user\'s current result, the latest finished unarchived result of the current round (else 403 `NOT_CURRENT_RESULT`). The archived result leaves the lists and exports, is kept, and reads back with `valid` false; POST `exam:users` adding the user again restores it.',
      'On a practice result it forgets it: administrators only (`PERMISSION_DENIED` otherwise); the play is detached from its user and kept for statistics.',
      'Answers `{play, archived: true, success: true}` or `{play, forgotten: true, success: true}`.',
    ),
    notes: 'GraphQL: `removeResult(play)`.',
    example: { play: X.play },
  },
  'GET quiz:results:user': {
    summary: "List a user's practice results of a Quiz set",
    description: p('Answers `results`, oldest first: the user\'s practice results (not exam results), archived ones left out, open plays included (`time_end` null, `valid` false).', READING),
    example: { quiz: X.quiz, user: X.user },
  },
  'GET exam:results:user': {
    summary: "List a user's results in an exam",
    description: p('Answers `results` over every round, oldest first, each with `attempt`; archived results left out, open plays included (`time_end` null, `valid` false).', READING),
    example: { exam: X.exam, user: X.user },
  },
  'POST exam:results:export': {
    summary: "Export an exam's results as a file",
    description: p(
      'Answers `{exam, format, url, valid}`: a link without credentials to a CSV or XLSX file, usable once, for one hour (`valid`). Needs report on the exam; only examinees the caller may see are exported, and the columns follow the exam\'s export settings.',
      'Arguments, checked before anything is stored: `format` csv or xlsx (default the exam\'s `export_format`); `sort` default (the examinee list order) or name (default the exam\'s `export_sort`); `preset` default or answers (only for an anonymous survey, one asking for no built-in user data; else 403 `NOT_ANONYMOUS_SURVEY`); `round` a closed round (default the current round; another is `INVALID_ARGUMENT`); `filters` a JSON object keyed by the label of a select field with filtering configured, each value one of its filterable options or a list of them (not with `round`: `ARGUMENT_CONFLICT`); `language` an active language (default the call\'s) that names the columns.',
      'The download (`GET /exports/<token>`) checks the caller\'s permissions again: a second download answers 410 `LINK_USED`, an expired link 410 `LINK_EXPIRED`, a caller that lost report 410 `LINK_REVOKED`. HEAD does not use the link. The file is streamed as it is read.',
    ),
    notes: 'GraphQL: `requestResultsExport(input)`.',
    example: { exam: X.exam, format: 'csv', sort: 'name', filters: { Site: ['Berlin', 'Vienna'] }, language: 'de' },
  },
  'GET exam:certificates:user': {
    summary: "Read a user's certificate of an exam",
    description: p(
      'Answers the user\'s latest certificate of the exam with its result; without one, the user\'s latest finished result (archived ones included), with `certified` false and `eligible` telling whether it qualifies now. `serial` appears only for a certificate issued with numbering, `expires` (date) only with validity months.',
      'Reading needs report on the exam, or being the user. A caller who may not view the exam gets 403 `NOT_FOUND` naming `exam`; a user without a finished result answers 403 `NOT_FOUND` naming `user`.',
    ),
    notes: 'GraphQL: `examCertificateStatus(exam, user)`.',
    example: { exam: X.exam, user: X.user },
  },
  'POST exam:certificates:user:download': {
    summary: "Get a download link for a user's certificate",
    description: p(
      'Answers `{play, user, url, valid}`: a link without credentials to a one-page PDF (title, the user\'s full name, grade, issue date, serial and expiry), valid until the end of the UTC day 7 days ahead; while it is valid every call answers the same link. An expired link answers 410 and the next call makes a new one. Names print in Latin, Greek and Cyrillic scripts; other characters print as their base letter or `?`.',
      'Same reading rule as GET `exam:certificates:user`. A user whose latest result holds no certificate is refused with 403 `NOT_CERTIFIED`.',
    ),
    notes: 'GraphQL: `downloadCertificate(exam, user)`.',
    example: { exam: X.exam, user: X.user },
  },
  'POST exam:certificates': {
    summary: "Certify an exam's eligible results",
    description: p(
      'Certifies every eligible result of the exam that has no certificate yet, in every round, in the order the results were finished (so serial numbers follow it). A result is eligible when the exam\'s grading decides success, its certificate settings are enabled, and the result is valid and successful. A second call issues nothing new.',
      'Needs control on the exam. Refused, changing nothing, while the certificate settings are off (403 `CERTIFICATES_DISABLED`) or the grading decides nothing (403 `GRADING_NOT_CERTIFYING`). Answers `exam`, `issued` and the `certificates` issued by this call (`play`, `user`, `serial` and `expires` where present).',
    ),
    notes: 'The contract names this endpoint without defining it; this service designs it. GraphQL: `issueExamCertificates(exam)`.',
    example: { exam: X.exam },
  },
};
