import { EXAMPLE as X, paragraphs as p, type ProseTable } from './types.ts';

const QUIZ_COPY = (what: string) =>
  p(
    `${what} Questions, question groups, and the target's selection, filtering and export settings stay. \`source\` equal to \`quiz\` is refused (403 \`SAME_SOURCE\`). Needs modify on the target and view on the source.`,
    'Answers `quiz` and `source`.',
  );

const FIND_QUESTION =
  'The question is found by its external `id` wherever the caller keeps questions: every folder of the caller and every Quiz set it may do the operation on. `quiz` and `path` narrow the search to one Quiz set or folder. An id found in several places is refused with 403 `AMBIGUOUS_ID`, whose message names them; give `path` or `quiz` to choose.';

/** Quiz sets, their settings and questions, grading presets, and the question base. */
export const quizProse: ProseTable = {
  'GET quizes': {
    summary: 'List Quiz sets',
    description: 'Lists the Quiz sets the caller may view. Paging: `search`, `limit` (default 16), `page`. Answers `quizes[{quiz, id, title}]`.',
    example: { search: 'safety' },
  },
  'GET quiz': {
    summary: 'Read a Quiz set',
    description: 'Answers the Quiz set record: `quiz`, `id`, `title`, `language`, `description` (only when set), `mode` and `type`. Needs view; a Quiz set the caller may not view is unknown (403 `NOT_FOUND` naming `quiz`).',
    example: { quiz: X.quiz },
  },
  'POST quiz': {
    summary: 'Create a Quiz set',
    description: p(
      '`title` is required. `mode` TEST (default; every question at once) or TURNS (one question after another); `type` set (default), final, exam or private. `organization` must be one the owner owns or administers; a plain member always gets its organization. `copy_settings` copies another Quiz set\'s settings; `copy_questions` copies its groups and items (the same questions, new items).',
      'Answers `quiz`.',
    ),
    example: { title: 'Fire safety basics', language: 'en', mode: 'TEST', copy_questions: X.otherQuiz },
  },
  'PATCH quiz': {
    summary: 'Change a Quiz set',
    description: 'Only given fields change: `title` (1-255), `id` (empty removes it), `language`, `description` (up to 255, empty removes it), `organization` (only the owner or an administrator; `none` or empty removes it). Needs modify.',
    example: { quiz: X.quiz, title: 'Fire safety basics (2027)' },
  },
  'DELETE quiz': {
    summary: 'Delete a Quiz set',
    description: 'Removes the Quiz set with its groups, items, rules and tags; its questions stay in the question base. A Quiz set used by an exam or a play is archived instead, and the exam keeps it. Needs admin.',
    example: { quiz: X.quiz },
  },
  'GET quiz:settings': {
    summary: "Read a Quiz set's settings",
    description: 'Answers `quiz`, `shuffle`, `timelimit`, `roundtime`, `grading` and `grading_threshold` (when set). Unconfigured settings read `shuffle: false`, `timelimit: null`, `roundtime: null`, `grading: "none"`. Needs view.',
    example: { quiz: X.quiz },
  },
  'POST quiz:settings': {
    summary: "Change a Quiz set's settings",
    description: p(
      'Only given settings change. `shuffle` shuffles the questions once per play (false keeps the current order). `timelimit`/`roundtime` take 0-31 536 000 seconds; 0 or `default` means no limit (read as null); `roundtime` is refused on TEST sets. `grading` is a preset code or `none`; `grading_threshold` a number 0-100, decimals kept as given (55.5 reads back as 55.5), only with a `go-nogo-custom` preset. Needs modify.',
      'Answers the settings as GET does.',
    ),
    example: { quiz: X.quiz, shuffle: true, timelimit: 1800, grading: X.preset, grading_threshold: 62.5 },
  },
  'PUT quiz:settings': {
    summary: "Replace a Quiz set's settings with another's",
    description: QUIZ_COPY('Replaces the whole configuration with that of `source`.'),
    example: { quiz: X.quiz, source: X.otherQuiz },
  },
  'PATCH quiz:settings': {
    summary: "Fill a Quiz set's unconfigured settings from another",
    description: QUIZ_COPY('Takes only the settings of `source` that the target has not configured.'),
    example: { quiz: X.quiz, source: X.otherQuiz },
  },
  'GET quiz:skills': {
    summary: 'List the skills a Quiz set tests',
    description: 'Answers `quiz` and `skills[{identifier, title, description}]` of its questions, once each. Needs view.',
    example: { quiz: X.quiz },
  },
  'GET quiz:questions': {
    summary: "List a Quiz set's questions and groups",
    description: 'Answers `items` in order: top-level questions and groups; each group is followed by its questions, which carry `group`. Each item has `question` and `id` (questions) or `group`, and `active`. Needs view.',
    example: { quiz: X.quiz },
  },
  'POST quiz:questions': {
    summary: 'Add questions to a Quiz set',
    description: 'Assigns the questions (comma-separated identification strings) to the Quiz set, or to the question group `group` (a missing group is created last). Assigning a question again moves it. Needs modify.',
    example: { quiz: X.quiz, group: 'Part 1', questions: `${X.question},qst_0b2d4f6h8j0l2n` },
  },
  'DELETE quiz:questions': {
    summary: 'Remove questions from a Quiz set',
    description: 'Removes the questions from the Quiz set (or from `group`); the questions stay in the question base. Needs modify.',
    example: { quiz: X.quiz, questions: X.question },
  },
  'GET quiz:grading-presets': {
    summary: 'List grading presets',
    description: p(
      'Lists global presets, the caller\'s own and those of its organizations, filtered by `language` (default the language of the given Quiz set or exam; presets without a language are always included). With `quiz` or `exam` (at most one; view needed, unknown and invisible ones are `NOT_FOUND`) it lists the presets usable there, answers that argument back, and `current` marks the preset it grades by (for an exam its own `grading`, or under `default` its Quiz set\'s; none with `none`).',
      'Each preset: `preset`, `title`, `type`, `language`, `configurable` (the pass mark can be set), `certificates` (the preset decides success), `own`, `organization`, `current`.',
    ),
    notes: 'GraphQL: `gradingPresets(exam:)`.',
    example: { exam: X.exam },
  },
  'GET quiz:grading-preset': {
    summary: 'Read a grading preset',
    description: 'Answers the preset record with its grades and `used`: for the caller\'s own preset, whether any Quiz set or exam uses it; for a global or organization preset, whether one owned by the caller does.',
    example: { preset: X.preset },
  },
  'POST quiz:grading-preset': {
    summary: 'Create a grading preset',
    description: p(
      '`type`: custom (2-20 unique, non-empty grades), go-nogo-custom (exactly 2: fail, pass; the pass mark can be set per Quiz set), hungarian-school or hungarian-university (exactly 5). `grades` is an ascending list of `{threshold, grade, text}`: thresholds 0-100 strictly ascending, the first stored as 0; `grade` is used only by custom; in `text` asterisks make bold and three spaces start a new line. `successful_all` (custom only): every grade counts as a pass. `language` defaults to the owner\'s.',
      'Needs the `custom_grading` feature. Answers `preset`.',
    ),
    example: { title: 'Pass at 70 %', type: 'go-nogo-custom', grades: [{ threshold: 0, text: 'Not passed' }, { threshold: 70, text: '*Passed*' }] },
  },
  'PATCH quiz:grading-preset': {
    summary: 'Change a grading preset',
    description: 'Only given fields change; `grades` replaces the whole list. The type cannot change while the preset is in use (`PRESET_IN_USE`); `successful_all` is dropped when the type leaves custom. Global and organization presets are read-only (`PRESET_READ_ONLY`). Answers the preset.',
    example: { preset: X.preset, title: 'Pass at 75 %', grades: [{ threshold: 0, text: 'Not passed' }, { threshold: 75, text: 'Passed' }] },
  },
  'DELETE quiz:grading-preset': {
    summary: 'Delete a grading preset',
    description: 'Global and organization presets (`PRESET_READ_ONLY`) and presets in use (`PRESET_IN_USE`: named by a Quiz set\'s or an exam\'s grading) cannot be removed.',
    example: { preset: X.preset },
  },
  'GET questions': {
    summary: 'List questions',
    description: 'Lists the questions of the caller\'s question base. Paging: `search`, `limit` (default 16), `page`.',
    example: { search: 'extinguisher', limit: 50 },
  },
  'GET question': {
    summary: 'Read a question by its external id',
    description: p(`${FIND_QUESTION} Needs view.`, 'Answers the question in the fields of POST `question`.'),
    example: { id: 'FS-001' },
  },
  'POST question': {
    summary: 'Create or replace a question',
    description: p(
      'The external `id` is unique within its scope: a folder of the caller (`path`, default `/API`) or a Quiz set (`quiz`, which needs modify on it). POST creates or replaces the question of that scope and never duplicates, even under concurrent identical calls; fields left out take their defaults (`organization` left out stays).',
      '`type` is one of generic, text, numerical, date/time, expression, choice, multiple-choice, order, grouping, pairing, matrix:generic, matrix, matrix:expression, set, set:text, true/false, free-text, file, hotspot, reading. `answer` holds the answers (or true statements), `options` the incorrect options (or false statements). Lists sent as text use `&&&` between items (`answer_label`, `options_order`, `tags`, `label`, `hint`, `solution`); pairs use `>>>`; yes/no flags (`answer_order`, `answer_hide`, `answer_indefinite`, `datetime_range`) are `+` or `-`.',
      'Validation: unknown fields are ignored; an invalid field answers 403 naming it; a field given for a type it does not apply to answers `ARGUMENT_CONFLICT`. Answers are checked against the type with the answer checker\'s own parsers, so every stored question can be scored. `hint_penalty`/`solution_penalty` are `EACH:<percent>` (per hint or step shown) or `ONCE:<percent>`; `parameters` are `{name; INT|FLOAT; min; max}`; `points` default 1.',
      'Media (`image`, `solution_image`, `graph`, `hotspot_image`: PNG, JPEG, WebP; `media_audio`: MP3, AAC, M4A; `media_video`, `video`: MP4, WebM; `attachment`: any) are `<filename>=<base64>` or a multipart file part, checked by content (`INVALID_FILE_TYPE`), at most 10 MiB (`FILE_TOO_LARGE`). A `<filename>=<URL>` is kept as a reference and never fetched.',
    ),
    example: { id: 'FS-001', type: 'choice', content: 'Which extinguisher is right for burning oil?', answer: 'Foam', options: ['Water', 'Sand'], hint: 'Oil floats on water', path: '/Safety', points: 2 },
  },
  'DELETE question': {
    summary: 'Delete a question by its external id',
    description: `${FIND_QUESTION} Needs modify on the Quiz set it is found in.`,
    example: { id: 'FS-001' },
  },
  'POST question:export': {
    summary: 'Export a question as a JSON file',
    description: p(
      `${FIND_QUESTION} Needs report.`,
      'Answers a link `BASE_URL/files/<token>` to a JSON file in the fields of POST `question`, usable without credentials until the end of its `valid` day (7 days); the same link is returned while valid, and a background job removes it afterwards.',
    ),
    example: { id: 'FS-001' },
  },
  'GET question:id': {
    summary: "Read a question's external id",
    description: 'Takes the question\'s identification string (`question`) and answers its external `id`.',
    example: { question: X.question },
  },
  'POST question:id': {
    summary: "Set a question's external id",
    description: 'Sets the external `id` of the question named by its identification string; an id already used by another question in the same folder or Quiz set is refused (`ID_TAKEN`). Answers `question`, `id` and `success`.',
    example: { question: X.question, id: 'FS-002' },
  },
};
