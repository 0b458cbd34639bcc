import { EXAMPLE as X, paragraphs as p, type ProseTable } from './types.ts';

const UNKNOWN_EXAM =
  'A caller who may not view the exam gets exactly the answer for an unknown exam (403 `NOT_FOUND` naming `exam`); one who may view it but lacks the level gets 403 `PERMISSION_DENIED`.';

const COPY_RULES = p(
  '`source` equal to `exam` is refused (403 `SAME_SOURCE`). Needs modify on the target and view on the source. Never copied: `freeze_round` (the round is the exam\'s own), settings that do not apply to the target (its type, `roundtime` for a TEST Quiz set), `questionless` for survey and championship targets or while the target\'s current round has results, `archive` when the caller is not a manager of the target, `export_gender` without the `privileged_fields` feature, an identifier the target has no qualifying field for, values the target\'s type fixes, and settings that would break a rule next to the target\'s own settings. User data fields, branding, examinees and rounds are not settings and stay.',
  'Certificate settings: with `keep_certificate_settings=false` (default) PUT takes the source\'s and PATCH takes them only when the target has none; `true` keeps the target\'s. The target always keeps its own next serial number. Answers `exam` and `source`.',
);

/** Exams, their rounds, branding, examinees, summaries, settings and user data fields. */
export const examsProse: ProseTable = {
  'GET exams': {
    summary: 'List exams',
    description: p(
      'Lists the exams the caller may view, latest `start` first (then by id). `search` matches the title or the external id; `active=true` keeps the active ones (switched on, `start` <= now < `end`), `false` the others. Paging: `limit` (default 16), `page` (not used with `search`).',
      'Answers `exams[{exam, id, title, active}]`. Archived exams are never listed.',
    ),
    example: { active: true, limit: 20 },
  },
  'GET exam': {
    summary: 'Read an exam',
    description: p(
      'Answers the exam record: `exam`, `id`, `title`, `description` (only when set), `language`, `quiz`, `active` (true while the status is ACTIVE, PAUSED or REVIEW), `status` (as GET `exam:status` derives it), `secure` (always false: nothing switches secure mode on yet, so `seb_launch_url` and `seb_config_url` never appear), `start`, `end` and `deadline` (or null). Needs view.',
      UNKNOWN_EXAM,
    ),
    example: { exam: X.exam },
  },
  'POST exam': {
    summary: 'Create an exam',
    description: p(
      'The exam runs one Quiz set the caller may view (`quiz`). `title`, `quiz`, `start` and `end` (datetimes, UTC, `start` < `end`) are required. Defaults: `language` the Quiz set\'s, `type` `exam` (`championship`, `homework`: can be paused and continued in the period, `survey`: no grading). The caller owns it. `organization` must be one the owner owns or administers; a plain member\'s exams always go to its organization.',
      '`copy_settings` names an exam the caller may view (otherwise 403 `NOT_FOUND` naming `copy_settings`); its settings are copied in the same transaction, as PUT `exam:settings` copies them, and its certificate settings only with `keep_certificate_settings=true`.',
      'Answers `exam`.',
    ),
    example: { title: 'Safety certification 2027', quiz: X.quiz, start: '2027-03-01 08:00:00', end: '2027-03-31 18:00:00', type: 'exam', copy_settings: X.otherExam },
  },
  'PATCH exam': {
    summary: 'Change an exam',
    description: p(
      'Only given fields change; needs modify. `id` empty removes the external id; `organization` (only the owner or an administrator) `none` or empty takes it out of its organization.',
      'Period: `start` < `end`, and `deadline` within [`start`, `end`] (`none` or empty removes it); a change that breaks this is refused naming the bound that was changed. `start` is frozen once the exam has any result (403 `START_FROZEN`; sending the same `start` again is fine).',
      '`description` keeps basic HTML (paragraphs, line breaks, emphasis, lists, headings, quotes, code, links with http, https or mailto); scripts and styles go with their content, event handlers and `javascript:` links are dropped; empty (also after cleaning) removes it.',
      'Takes exactly these arguments: the exam\'s own on/off switch is changed only through GraphQL `updateExam(input: { enabled })`; an `enabled` sent here is ignored like any unknown argument.',
    ),
    example: { exam: X.exam, end: '2027-04-15 18:00:00', deadline: '2027-04-10 18:00:00', description: '<p>Bring your <strong>ID card</strong>.</p>' },
  },
  'DELETE exam': {
    summary: 'Delete or archive an exam',
    description: p(
      'An exam with results is archived: gone for every reader (NOT_FOUND, absent from lists) while its plays stay for statistics. One without results is removed with its rounds, examinees, branding and its stored image, summaries, settings, fields, permission rules and tags. Needs admin.',
    ),
    example: { exam: X.exam },
  },
  'GET exam:skills': {
    summary: "List the skills an exam tests",
    description: 'Answers `exam` and `skills[{identifier, title, description}]`: the skills of the questions of the exam\'s Quiz set, once each, by title. Needs view.',
    example: { exam: X.exam },
  },
  'GET exam:branding': {
    summary: "Read an exam's branding",
    description: 'Answers `exam`, `enabled`, `type` (foreground or background) and `color`; `{exam, enabled: false}` alone when the exam has no branding. Needs view.',
    example: { exam: X.exam },
  },
  'POST exam:branding': {
    summary: "Set an exam's branding",
    description: p(
      '`image` is base64 content (a `data:` prefix is accepted), an uploaded file part, or an http(s) URL. Content is checked by its real type (PNG, JPEG, WebP; otherwise `INVALID_FILE_TYPE`) and size (10 MiB; `FILE_TOO_LARGE`); a URL is kept as a reference and never fetched. `type` `foreground` (default: a logo beside the title) or `background` (a cover above it); `color` one of branding, red, blue, yellow, green, purple, gray.',
      'Replaces an earlier branding (and deletes its stored image) and answers the branding record with `success: true`. Needs modify. The results page wears it.',
    ),
    example: { exam: X.exam, type: 'foreground', color: 'blue', image: 'logo.png=iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==' },
  },
  'DELETE exam:branding': {
    summary: "Remove an exam's branding",
    description: 'Removes the branding and its stored image. Answers `success: false` when there was none. Needs modify.',
    example: { exam: X.exam },
  },
  'GET exam:users': {
    summary: "List an exam's examinees",
    description: 'Answers `users[{user, name}]` by full name (then id): the examinees the caller may see (itself and the users it manages; every user for administrators). Needs report.',
    example: { exam: X.exam },
  },
  'POST exam:users': {
    summary: 'Add examinees to an exam',
    description: p(
      'Takes users the caller may read (itself, the users it manages, any for administrators); any other answers 403 `NOT_FOUND` naming `users`, as an unknown id does, and nothing changes. Adding one twice changes nothing. Adding a user again restores its archived results of the current round. Needs control.',
      'Answers `{exam, users: <how many were added>, success: true}`.',
    ),
    example: { exam: X.exam, users: `${X.user},${X.otherUser}` },
  },
  'DELETE exam:users': {
    summary: 'Remove examinees from an exam',
    description: 'Removes the users named from the examinees, keeping their results; users the caller may not read answer 403 `NOT_FOUND` naming `users`. Answers `{exam, users: <how many were removed>, success: true}`. Needs control.',
    example: { exam: X.exam, users: X.user },
  },
  'POST exam:summary': {
    summary: "Store a summary of an exam's results",
    description: p(
      'Stores one summary per exam and language (default the exam\'s language; an active language), replacing an earlier one. `summary` is basic HTML as for descriptions (refused when nothing is left after cleaning) and should hold no personal information. `type` `ai` (default); `llm` names the language model (1-64), `model` its exact name (1-128, needs `llm`: `ARGUMENT_CONFLICT`). Needs modify.',
      'Answers `{exam, language, success: true}`. Readers of the exam read summaries through GraphQL `Exam.summaries`.',
    ),
    example: { exam: X.exam, summary: '<p>Most examinees struggled with question 4.</p>', llm: 'ExampleAI', model: 'example-large-2' },
  },
  'GET exam:status': {
    summary: "Read an exam's status and counts",
    description: p(
      'The status is derived at every read, never stored; the first rule that holds decides: EXPIRED when now >= `end` (also when switched off); INACTIVE when switched off or now < `start`; REVIEW when a `view_results_start` of the datetime kinds is set and reached; PAUSED when tests are paused or `deadline` has passed; otherwise ACTIVE.',
      'Answers `exam`, `status`, `active`, `start`, `end`, `deadline` (or null), `paused` (new tests cannot start), `round` (the current round), `users` (examinees), `started` (current results of every round), `finished` (those of them finished) and `archived` (archived results). Needs view.',
    ),
    notes: 'GraphQL `Exam.status` has the same fields.',
    example: { exam: X.exam },
  },
  'GET exam:round': {
    summary: "Read an exam's rounds",
    description: p(
      'An exam starts in round 1, which begins at `start`. Answers `exam`, `round` (current), `start` (when the current round began), `frozen` (`freeze_round`), `results` (current results of the current round) and `rounds`: the closed rounds, oldest first, each with `round`, `start`, `end` (when it was closed) and `results`. Needs view.',
    ),
    notes: 'The contract names this endpoint without defining it; this service designs it. GraphQL: `Exam.round { current frozen closed }`.',
    example: { exam: X.exam },
  },
  'POST exam:round': {
    summary: "Close an exam's current round",
    description: p(
      'Closes the current round now and opens the next. Closed rounds keep their results (each play records its round) and can be exported. Refused with 403 `ROUND_FROZEN` while `freeze_round` is on; of two concurrent closes one closes the round and the other answers 403 `ROUND_CHANGED`. Needs modify.',
      'Answers `exam`, `round` (the new one), `start` and `closed` (the number of the round closed).',
    ),
    notes: 'The contract names this endpoint without defining it; this service designs it. GraphQL: `closeExamRound(exam)`.',
    example: { exam: X.exam },
  },
  'GET exam:settings': {
    summary: "Read an exam's settings",
    description: p(
      'Answers `exam`, then every setting: configured ones as stored, the others as their defaults. Defaults: the booleans false except `results_page` true and `export_custom_fields`, `export_skills` true; `view_results` after; `export_format` xlsx; `export_sort` default. `timelimit`/`roundtime` read null when the Quiz set\'s applies; `grading` null for `default`. Values the exam\'s type fixes read as fixed (nonblocking true for homework and surveys, pausable true for homework). `view_results_start`, `view_results_identifier` and `results_url` appear only for the datetime kinds; `export_attendance` is read only and true.',
      'Surveys leave out grading, grading_threshold, the results viewing settings and every export_* but export_format and export_sort. Needs view.',
    ),
    example: { exam: X.exam },
  },
  'POST exam:settings': {
    summary: "Change an exam's settings",
    description: p(
      'Only given settings change; the settings are checked as they will be after the change, and a refusal changes nothing. A change against a rule is 403 `ARGUMENT_CONFLICT` naming the setting; malformed values 403 `INVALID_ARGUMENT`. Needs modify.',
      'Rules: `nonblocking` cannot be disabled when results exist or tests are paused (disabling it switches `pausable` off); `pausable` only for non-blocking exams; `questionless` not for surveys and championships and frozen while the current round has a play; `timelimit`/`roundtime` seconds 0-31 536 000 (0 no limit) or `default` (the Quiz set\'s), `roundtime` only for TURNS Quiz sets; `freeze_round` and `archive` only by managers of the exam (admin on it; others get `PERMISSION_DENIED` naming the setting, though sending the current value is allowed); `grading` a preset the caller may use, `none` or `default`; `grading_threshold` 0-100 (decimals kept) only while the exam\'s own grading is a go-nogo-custom preset.',
      'Results viewing: `view_results` after, always, datetime, datetime_blind, manual or none; `view_results_start` is mandatory with the datetime kinds and lies in [start, end]; `view_results_identifier` is the label of a unique text, email or phone field (`none` or empty clears it); `results_page` false only with datetime_blind, manual or none; `hide_grade` needs `hide_points`; `show_in_lasthour` needs after. `export_gender` needs the `privileged_fields` feature to switch on (406 `FEATURE_DISABLED`).',
      'Surveys refuse the grading, viewing and export settings they do not have ("does not apply to surveys"). Answers the settings as GET does.',
    ),
    example: { exam: X.exam, timelimit: 3600, view_results: 'datetime', view_results_start: '2027-04-01 09:00:00', export_format: 'csv', export_answers: true },
  },
  'PUT exam:settings': {
    summary: "Replace an exam's settings with another exam's",
    description: p('Takes every configured setting of `source`; its unconfigured ones become unconfigured on the target.', COPY_RULES),
    notes: 'GraphQL: `copyExamSettings(mode: REPLACE)`.',
    example: { exam: X.exam, source: X.otherExam },
  },
  'PATCH exam:settings': {
    summary: "Fill an exam's unconfigured settings from another exam",
    description: p('Takes only the settings of `source` that the target has not configured (grading and its threshold count as one).', COPY_RULES),
    notes: 'GraphQL: `copyExamSettings(mode: FILL)`.',
    example: { exam: X.exam, source: X.otherExam, keep_certificate_settings: true },
  },
  'GET exam:fields': {
    summary: "Read an exam's user data fields",
    description: p(
      'Answers `exam`; `name`, `email`, `phone` (false: unused, true: used with the default label, text: used with that label; unconfigured: name and email used, phone unused); and `fields`, the custom fields in display order with their settings (`options` and `filtering` for select fields, `from`/`to`/`step` for from-to, `min`/`max` for dates, `minlength`/`maxlength`/`pattern` for free text, `unique: true` only on a unique free-text field). An unset description or icon reads `""`. Needs view.',
    ),
    example: { exam: X.exam },
  },
  'POST exam:fields': {
    summary: "Set an exam's user data fields",
    description: p(
      '`name`, `email`, `phone`: true, false (switched off, label kept) or a label (1-255). `fields` (a JSON list) replaces the custom fields in display order; absent, they stay; `[]` removes them all. Each field: `label` (required, unique), `type` (text, email, phone, select, number, from-to, date, datetime, yes-no, yes, no, true-false, gender; default text), `required` (default true), `description` (up to 1000), `icon` (`fa-<style> fa-<name>`) and the settings of its type. Settings a field leaves out are taken from the earlier field of the same label when the type is the same.',
      'Rules: settings given for another type are refused (`ARGUMENT_CONFLICT`, e.g. `fields.0.options`); select options: empty ones dropped, at least one, no repeats; `filtering` keys must be options; from-to: `from` and `to` mandatory, from < to, step not 0; `min`/`max`: `now`, `YYYY-MM-DD` or for datetime `YYYY-MM-DD HH:MM` (UTC), max not before a fixed min; minlength <= maxlength; `pattern` needs the `privileged_fields` feature and must compile as a whole-value regular expression (without the feature it is ignored and the previous pattern stays).',
      'Removed fields are kept hidden with their entered values; listing the label again brings them back. Clears `view_results_identifier` when its field stops qualifying. Answers as GET. Needs modify.',
    ),
    example: { exam: X.exam, phone: 'Mobile number', fields: [{ label: 'Employee number', type: 'text', unique: true, maxlength: 12 }, { label: 'Site', type: 'select', options: ['Berlin', 'Vienna'] }] },
  },
  'DELETE exam:fields': {
    summary: "Remove an exam's custom user data fields",
    description: 'Removes every custom field; built-in fields stay (switch them off with POST). Entered values are kept but hidden, and come back when a field of the same label is listed again. Clears `view_results_identifier`. Answers `{exam, success: true}`. Needs modify.',
    example: { exam: X.exam },
  },
};
