import type { Argument, Operation } from './types.ts';
import { bool, code, either, file, hash, int, list, num, oneOf, op, req, text } from './build.ts';
import * as examIn from '../../services/exams/exams.schemas.ts';
import * as gradingIn from '../../services/grading/grading.schemas.ts';
import * as graphIn from '../../services/journeys/graph.schemas.ts';
import { paging } from '../../services/paging.ts';
import * as journeyUsers from '../../services/journeys/journey-users.service.ts';
import * as publish from '../../services/journeys/publish.service.ts';
import * as playIn from '../../services/plays/plays.schemas.ts';
import * as questionIn from '../../services/questions/questions.schemas.ts';
import * as quizIn from '../../services/quizzes/quizzes.schemas.ts';
import * as settingsIn from '../../services/exams/settings.schemas.ts';

/**
 * Exams, exam settings, user data fields, journeys, results and certificates, Quiz
 * sets, grading presets and questions.
 *
 * Deliberately absent: nothing. GET/POST `exam:round`, POST `exam:certificates` and GET
 * `exam:journey` ("Further endpoints referred to above ...: not shown"), and GET
 * `exam:journey:user` (the journey user-state record, whose path and method are not shown) are
 * this service's additions (`documentBAdditions`, described in their prose in the reference,
 * /api/docs).
 */

/** Named by the contract with methods, but not defined there; the table leaves them out. */
export const NOT_SHOWN_ENDPOINTS = Object.freeze(['exam:journey', 'exam:round', 'exam:certificates'] as const);

const exams = { document: 'B', section: 'Exams', area: 'exams' } as const;
const settings = { document: 'B', section: 'Exam settings', area: 'exams' } as const;
const fields = { document: 'B', section: 'Exam user data fields', area: 'exams' } as const;
const journeys = { document: 'B', section: 'Exam journeys', area: 'journeys' } as const;
const results = { document: 'B', section: 'Results and certificates', area: 'results' } as const;
const quiz = { document: 'B', section: 'Quiz sets', area: 'quiz' } as const;
const presets = { document: 'B', section: 'Grading presets', area: 'quiz' } as const;
const questions = { document: 'B', section: 'Questions', area: 'quiz' } as const;

const organization = (rule: string) => code('organization', { note: rule });

const EXAM_RECORD = [
  'exam, id:string/null, title, description?, language, quiz, active:boolean',
  'status, secure:boolean, start:datetime, end:datetime, deadline:datetime/null, seb_launch_url?:url, seb_config_url?:url',
].join(', ');
const SKILLS = 'skills[identifier, title, description?]';


const EXAM_SETTINGS_RECORD = [
  'nonblocking:boolean, pausable:boolean, questionless:boolean, timelimit:integer/null, roundtime:integer/null',
  'freeze_round:boolean, archive:boolean, grading:string/null, grading_threshold:number, view_results',
  'view_results_start?:datetime, view_results_identifier?, results_url?:url',
  'results_page:boolean, hide_ingame_results:boolean, hide_points:boolean, hide_grade:boolean, show_in_lasthour:boolean',
  'export_format, export_sort, export_stats:boolean, export_answers:boolean, export_points:boolean, export_suspicion:boolean',
  'export_finished_only:boolean, export_custom_fields:boolean, export_skills:boolean, export_gender:boolean',
  'export_journey:boolean, export_attendance:boolean',
].join(', ');

const FIELDS_RECORD = [
  'exam, name:boolean|string, email:boolean|string, phone:boolean|string',
  'fields[label, type, required:boolean, description, icon, options?:string[], filtering?:hash, from?, to?, step?, min?, max?, minlength?:integer, maxlength?:integer, pattern?, unique?:boolean]',
].join(', ');

const builtInField = (name: string) =>
  either(name, ['boolean', 'string'], { min: 1, max: 255, note: 'true default label, false unused with its other settings kept, other text is the label' });

const CUSTOM_FIELD: Argument[] = [
  req(text('label', { note: 'unique in the exam; identifies the field, earlier settings of a same-label field serve as defaults' })),
  oneOf('type', ['text', 'email', 'phone', 'select', 'number', 'from-to', 'date', 'datetime', 'yes-no', 'yes', 'no', 'true-false', 'gender'], {
    default: 'text',
  }),
  bool('required', { default: true }),
  text('description'),
  text('icon', { note: "icon class name of the form 'fa-<style> fa-<name>', style one of solid, regular, light, thin, brands" }),
  list('options', { note: 'mandatory for select, empty ones dropped' }),
  hash('filtering', { note: 'object keyed by option, select only, previous labels kept if omitted' }),
  num('from', { note: 'mandatory for from-to, lower than to' }),
  num('to', { note: 'mandatory for from-to' }),
  num('step', { note: 'from-to, not 0' }),
  text('min', { note: 'date and datetime: `now`, YYYY-MM-DD or YYYY-MM-DD HH:MM in UTC' }),
  text('max', { note: 'date and datetime; not earlier than a fixed min' }),
  int('minlength', { min: 1, max: 255, note: 'free text fields: text, email, phone' }),
  int('maxlength', { min: 1, max: 255, note: 'free text fields: text, email, phone' }),
  text('pattern', { min: 1, max: 255, note: 'regular expression matched against the whole value; needs special privileges' }),
  bool('unique', { default: false, note: 'free text' }),
];



const ISSUES = 'issues?[level, code, node:string/null, output:string/null, message]';
const JOURNEY_DRAFT = [
  '$schema:url, schema:integer, exam, journey, active:boolean, version:integer, published:datetime/null, graph',
  'unpublished_changes:boolean, settings:hash',
  'nodes[node, type, label:string/null, position{x:number, y:number}, config:hash, next:hash, marker, title:string/null, content:string/null]',
  `${ISSUES}, publishable?:boolean`,
].join(', ');

const PLAY = [
  'play, user, time_start, time_end, questions_total:integer, questions_correct:integer',
  'points_total:number, points_correct:number, valid:boolean, successful:boolean/null',
].join(', ');

const PRESET_SUMMARY = 'preset, title, type, language:string/null, configurable:boolean, certificates:boolean, own:boolean, organization:string/null';
const PRESET_RECORD = `${PRESET_SUMMARY}, used:boolean, grades[threshold:number, grade, text?], successful_all?:boolean`;

const QUIZ_RECORD = 'quiz, id:string/null, title, language, description?, mode, type';
const QUIZ_SETTINGS_RECORD = 'quiz, shuffle:boolean, timelimit:integer/null, roundtime:integer/null, grading, grading_threshold?:number';

const yesNo = (name: string, note?: string) => oneOf(name, ['+', '-'], { default: '-', note: `'+' means yes, blank or '-' means no${note ? `; ${note}` : ''}` });
const ampersands = (name: string, note: string) => list(name, { separator: '&&&', note });
const media = (name: string, note: string) => file(name, { note: `\`<filename>=<data>\` where data is base64 content or a URL; ${note}` });

const QUESTION_TYPES = [
  'generic', 'text', 'numerical', 'date/time', 'expression', 'choice', 'multiple-choice', 'order', 'grouping', 'pairing',
  'matrix:generic', 'matrix', 'matrix:expression', 'set', 'set:text', 'true/false', 'free-text', 'file', 'hotspot', 'reading',
];

const QUESTION_FIELDS: Argument[] = [
  req(text('id', { min: 1, max: 64 })),
  req(oneOf('type', QUESTION_TYPES)),
  req(text('content', { note: 'the question text' })),
  req(either('answer', ['string', 'list'], { note: 'answers or true statements' })),
  yesNo('answer_order'),
  yesNo('answer_hide'),
  yesNo('answer_indefinite'),
  ampersands('answer_label', 'labels for the inputs; implies answer_order yes'),
  int('answer_require', { note: 'number of answers needed for full score; not for choice and free-text' }),
  text('answer_format', { default: 'normal', note: 'free-text only; `normal`, or `code` optionally with `:<language>`' }),
  oneOf('question_format', ['NORMAL', 'LATEX', 'LONG'], { default: 'NORMAL' }),
  text('subject'),
  text('category'),
  int('difficulty', { min: 0, max: 5, default: 0, note: '0 unclassified, 1 very easy to 5 very difficult' }),
  text('path', { default: '/API', note: 'storage folder of the personal question base' }),
  code('quiz', { note: 'Quiz set the question is added to' }),
  organization('same rules as for exams; `none` or empty removes an existing question from its organization, only by owner or administrator'),
  either('options', ['string', 'list'], { note: 'incorrect options or false statements' }),
  text('options_fix', { note: 'all / abc / first:N / last:N / answers' }),
  text('options_order', { note: 'explicit order with references ANSWER:N, OPTION:N, OPTION_NONE:N separated by &&&; every answer and option exactly once' }),
  text('ai', { note: 'any value marks the question as AI generated' }),
  ampersands('tags', 'user-defined tags registered beforehand'),
  ampersands('label', 'instance-level labels'),
  text('source', { note: 'attribution' }),
  text('note', { note: 'shown to test takers below the question' }),
  text('private_note', { note: 'hidden from test takers' }),
  ampersands('hint', 'guiding hints, shown one at a time, not to test takers in exam mode'),
  text('explanation', { note: 'shown under the answer on the results page, no LaTeX' }),
  ampersands('solution', 'steps, not to test takers in exam mode'),
  int('decimals', { default: 2, note: 'for numerical, expression, matrix, matrix:expression, set' }),
  text('tolerance', { note: '`<type>` or `<type>:<value>`; ABSOLUTE, RELATIVE, QUOTIENT, QUOTIENT2, the last two optionally with `:SYNCED`' }),
  oneOf('datetime_precision', ['YEAR', 'MONTH', 'DAY'], { default: 'DAY', note: 'date/time only' }),
  yesNo('datetime_range', 'date/time only'),
  media('image', 'PNG, JPEG, WebP'),
  media('solution_image', 'PNG, JPEG, WebP'),
  media('attachment', 'any type'),
  media('media_audio', 'MP3, AAC, M4A'),
  text('main_category'),
  media('media_video', 'form as for image; types not stated'),
  int('maximum_choices', { note: 'multiple-choice only' }),
  media('video', 'form as for image; types not stated'),
  media('graph', 'form as for image; types not stated'),
  text('numerical_range'),
  text('truefalse_third_options'),
  text('truefalse_third_options_label'),
  int('grouping', { note: 'choice or multiple-choice; incorrect options drawn from other questions with the same grouping number' }),
  text('freetext_characters'),
  text('freetext_words'),
  text('freetext_rules'),
  int('file_count', { min: 1, max: 25, default: 1, note: 'type file only' }),
  list('file_types', { note: 'type file only; extensions separated by commas or &&&; any type if unset' }),
  media('hotspot_image', 'type hotspot'),
  text('hotspot_zones', { note: 'type hotspot; zone geometry is best authored in the question editor' }),
  num('points', { note: 'shown in sample usages' }),
  ampersands('parameters', 'entries of the form `{name; TYPE; min; max}`; shown in sample usages'),
  text('hint_penalty', { note: 'form `<MODE>:<percent>`; shown in sample usages' }),
  text('solution_penalty', { note: 'form `<MODE>:<percent>`; shown in sample usages' }),
];

/** Operations this service adds where the contract names an endpoint without defining it. */
export const documentBAdditions: readonly Operation[] = [
  ...op(exams, 'exam:round', 'GET', {
    input: examIn.examRef,
    output: 'exam, round:integer, start:datetime, frozen:boolean, results:integer, rounds[round:integer, start:datetime, end:datetime, results:integer]',
    addition: true,
  }),
  ...op(exams, 'exam:round', 'POST', {
    input: examIn.examRef,
    output: 'exam, round:integer, start:datetime, closed:integer',
    addition: true,
  }),
  ...op(results, 'exam:certificates', 'POST', {
    input: examIn.examRef,
    output: 'exam, issued:integer, certificates[play, user, serial?, expires?:date]',
    addition: true,
  }),
  ...op(journeys, 'exam:journey', 'GET', {
    input: journeyUsers.journeySummaryInput,
    output: [
      'exam, journey, title:string/null, active:boolean, version:integer, published:datetime/null',
      'users[total:integer, active:integer, waiting:integer, error:integer, completed:integer, stopped:integer]',
      'nodes[node, type, label:string/null, users:integer, active:integer, waiting:integer, error:integer]',
    ].join(', '),
    addition: true,
  }),
  ...op(journeys, 'exam:journey:user', 'GET', {
    input: journeyUsers.journeyUserInput,
    output: [
      'exam, journey:string/null, user, status:string/null, outcome?:string/null, error?, run:integer, step:hash/null, wait_until?:datetime',
      'time_start:datetime, time_end:datetime/null, steps_completed:integer, steps_total:integer, steps_remaining:integer/null, flags?:hash',
      'history[run:integer, visit:integer, step, marker?, type, title?, content?, outcome:string/null, status, time_start:datetime, time_end:datetime/null, time_spent?:integer, result?:number, successful?:boolean, grade?, play?, skills?:hash, decisions[decision, type, title:string/null, output:string/null, label:string/null]]',
      'events[run:integer, type, source, from:hash, to:hash, operator:string/null, time:datetime]',
    ].join(', '),
    addition: true,
  }),
];

export const documentB: readonly Operation[] = [
  ...op(exams, 'exams', 'GET', {
    input: paging.extend(examIn.listExams.shape),
    output: 'exams[exam, id:string/null, title, active:boolean]',
  }),
  ...op(exams, 'exam', 'GET', { input: examIn.examRef, output: EXAM_RECORD }),
  ...op(exams, 'exam', 'POST', {
    input: examIn.createExam,
    output: 'exam',
  }),
  ...op(exams, 'exam', 'PATCH', {
    input: examIn.updateExam,
  }),
  ...op(exams, 'exam', 'DELETE', { input: examIn.examRef }),
  ...op(exams, 'exam:skills', 'GET', { input: examIn.examRef, output: `exam, ${SKILLS}` }),
  ...op(exams, 'exam:branding', 'GET', { input: examIn.examRef, output: 'exam, enabled:boolean, type?, color?' }),
  ...op(exams, 'exam:branding', 'POST', {
    input: examIn.setBranding,
  }),
  ...op(exams, 'exam:branding', 'DELETE', { input: examIn.examRef }),
  ...op(exams, 'exam:users', 'GET', { input: examIn.examRef, output: 'users[user, name]' }),
  ...op(exams, 'exam:users', ['POST', 'DELETE'], { input: examIn.examUsers }),
  ...op(exams, 'exam:summary', 'POST', {
    input: examIn.setSummary,
  }),
  ...op(exams, 'exam:status', 'GET', { input: examIn.examRef, notShown: ['output'] }),

  ...op(settings, 'exam:settings', 'GET', { input: settingsIn.examRef, output: EXAM_SETTINGS_RECORD }),
  ...op(settings, 'exam:settings', 'POST', { input: settingsIn.updateSettings, output: EXAM_SETTINGS_RECORD }),
  ...op(settings, 'exam:settings', ['PUT', 'PATCH'], {
    input: settingsIn.copySettings,
    output: 'exam, source',
  }),

  ...op(fields, 'exam:fields', 'GET', { input: settingsIn.examRef, output: FIELDS_RECORD }),
  ...op(fields, 'exam:fields', 'POST', {
    args: [
      req(code('exam')),
      builtInField('name'),
      builtInField('email'),
      builtInField('phone'),
      list('fields', { items: 'hash', fields: CUSTOM_FIELD, note: 'replaces the current custom fields, in display order' }),
    ],
    output: FIELDS_RECORD,
  }),
  ...op(fields, 'exam:fields', 'DELETE', { input: settingsIn.examRef }),

  ...op(journeys, 'exam:journey:graph', 'GET', {
    input: graphIn.graphRef,
    output: JOURNEY_DRAFT,
  }),
  ...op(journeys, 'exam:journey:graph', 'PUT', {
    input: graphIn.saveGraph,
    output: `${JOURNEY_DRAFT}, ignored?:string[]`,
  }),
  ...op(journeys, 'exam:journey:publish', 'POST', {
    input: publish.publishInput,
    output: `exam, journey, active:boolean, version:integer, published:datetime, unchanged?:boolean, remapped?:hash, ${ISSUES}, warning?`,
  }),

  ...op(results, 'quiz:results:play', 'GET', {
    input: playIn.playRef,
    output: `${PLAY}, attempt?:integer, questions[index:integer, id:string/null, question, time_answer?:number, points_maximum:number, points:number]`,
  }),
  ...op(results, 'quiz:results:play', 'DELETE', { input: playIn.playRef }),
  ...op(results, 'quiz:results:user', 'GET', { input: playIn.quizResults, output: `results[${PLAY}]` }),
  ...op(results, 'exam:results:user', 'GET', { input: playIn.examResults, output: `results[${PLAY}, attempt:integer]` }),
  ...op(results, 'exam:results:export', 'POST', {
    input: playIn.exportResults,
    output: 'exam, format, url:url, valid:datetime',
  }),
  ...op(results, 'exam:certificates:user', 'GET', {
    input: playIn.examResults,
    output: 'play, user, archived:boolean, eligible:boolean, certified:boolean, serial?, expires?:date',
  }),
  ...op(results, 'exam:certificates:user:download', 'POST', {
    input: playIn.examResults,
    output: 'play, user, url:url, valid:date',
  }),

  ...op(quiz, 'quizes', 'GET', { input: paging, output: 'quizes[quiz, id:string/null, title]' }),
  ...op(quiz, 'quiz', 'GET', { input: quizIn.quizRef, output: QUIZ_RECORD }),
  ...op(quiz, 'quiz', 'POST', {
    input: quizIn.createQuizSet,
    output: 'quiz',
  }),
  ...op(quiz, 'quiz', 'PATCH', {
    input: quizIn.updateQuizSet,
  }),
  ...op(quiz, 'quiz', 'DELETE', { input: quizIn.quizRef }),
  ...op(quiz, 'quiz:settings', 'GET', { input: quizIn.quizRef, output: QUIZ_SETTINGS_RECORD }),
  ...op(quiz, 'quiz:settings', 'POST', {
    input: quizIn.updateSettings,
    output: QUIZ_SETTINGS_RECORD,
  }),
  ...op(quiz, 'quiz:settings', ['PUT', 'PATCH'], {
    input: quizIn.copySettings,
    output: 'quiz, source',
  }),
  ...op(quiz, 'quiz:skills', 'GET', { input: quizIn.quizRef, output: `quiz, ${SKILLS}` }),
  ...op(quiz, 'quiz:questions', 'GET', { input: quizIn.quizRef, output: 'items[question?, id?:string, group?, active:boolean]' }),
  ...op(quiz, 'quiz:questions', ['POST', 'DELETE'], {
    input: quizIn.assignQuestions,
  }),

  ...op(presets, 'quiz:grading-presets', 'GET', {
    input: gradingIn.listPresets,
    output: `quiz?, exam?, presets[${PRESET_SUMMARY}, current?:boolean]`,
  }),
  ...op(presets, 'quiz:grading-preset', 'GET', { input: gradingIn.presetRef, output: PRESET_RECORD }),
  ...op(presets, 'quiz:grading-preset', 'POST', {
    input: gradingIn.createPreset,
    output: 'preset',
  }),
  ...op(presets, 'quiz:grading-preset', 'PATCH', {
    input: gradingIn.updatePreset,
    output: PRESET_RECORD,
  }),
  ...op(presets, 'quiz:grading-preset', 'DELETE', { input: gradingIn.presetRef }),

  ...op(questions, 'questions', 'GET', { input: paging, output: 'questions[question, id:string]' }),
  ...op(questions, 'question', 'GET', { input: questionIn.questionLookup, output: 'question, id:string, active:boolean' }),
  ...op(questions, 'question', 'POST', { args: QUESTION_FIELDS, output: 'question', notShown: ['input'] }),
  ...op(questions, 'question', 'DELETE', { input: questionIn.questionLookup }),
  ...op(questions, 'question:export', 'POST', { input: questionIn.questionLookup, output: 'id:string, question, url:url, valid:date' }),
  ...op(questions, 'question:id', 'GET', { input: questionIn.questionRef, output: 'question, id:string' }),
  ...op(questions, 'question:id', 'POST', { input: questionIn.setExternalId }),
];
