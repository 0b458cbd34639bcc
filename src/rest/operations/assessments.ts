import type { Operation } from './types.ts';
import { op, out } from './build.ts';
import * as examIn from '../../services/exams/exams.schemas.ts';
import * as fieldsIn from '../../services/exams/fields.model.ts';
import * as gradingIn from '../../services/grading/grading.schemas.ts';
import * as graphIn from '../../services/journeys/graph.schemas.ts';
import { journeyNodeJsonSchema, journeySettingsJsonSchema } from '../../services/journeys/json-schema.ts';
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
 * this service's additions (`assessmentAdditions`, described in their prose in the reference,
 * /api/docs).
 */

/** Named by the contract with methods, but not defined there; the table leaves them out. */
export const NOT_SHOWN_ENDPOINTS = Object.freeze(['exam:journey', 'exam:round', 'exam:certificates'] as const);

const exams = { part: 'assessments', section: 'Exams', area: 'exams' } as const;
const settings = { part: 'assessments', section: 'Exam settings', area: 'exams' } as const;
const fields = { part: 'assessments', section: 'Exam user data fields', area: 'exams' } as const;
const journeys = { part: 'assessments', section: 'Exam journeys', area: 'journeys' } as const;
const results = { part: 'assessments', section: 'Results and certificates', area: 'results' } as const;
const quiz = { part: 'assessments', section: 'Quiz sets', area: 'quiz' } as const;
const presets = { part: 'assessments', section: 'Grading presets', area: 'quiz' } as const;
const questions = { part: 'assessments', section: 'Questions', area: 'quiz' } as const;

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

const ISSUES = 'issues?[level, code, node:string/null, output:string/null, message]';
const JOURNEY_DRAFT = [
  '$schema:url, schema:integer, exam, journey, active:boolean, version:integer, published:datetime/null, graph',
  'unpublished_changes:boolean, settings:hash',
  'nodes[node, type, label:string/null, position{x:number, y:number}, config:hash, next:hash, marker, title:string/null, content:string/null]',
  `${ISSUES}, publishable?:boolean`,
].join(', ');

/** A journey draft as answered, its settings and nodes described by the portable format's JSON Schema. */
const journeyDraft = (extra = '') =>
  Object.freeze(
    out(`${JOURNEY_DRAFT}${extra}`).map((f) =>
      f.name === 'settings' ? Object.freeze({ ...f, jsonSchema: journeySettingsJsonSchema }) : f.name === 'nodes' ? Object.freeze({ ...f, jsonSchema: journeyNodeJsonSchema }) : f,
    ),
  );

const PLAY = [
  'play, user, time_start, time_end, questions_total:integer, questions_correct:integer',
  'points_total:number, points_correct:number, valid:boolean, successful:boolean/null',
].join(', ');

const PRESET_SUMMARY = 'preset, title, type, language:string/null, configurable:boolean, certificates:boolean, own:boolean, organization:string/null';
const PRESET_RECORD = `${PRESET_SUMMARY}, used:boolean, grades[threshold:number, grade, text?], successful_all?:boolean`;

const QUIZ_RECORD = 'quiz, id:string/null, title, language, description?, mode, type';
const QUIZ_SETTINGS_RECORD = 'quiz, shuffle:boolean, timelimit:integer/null, roundtime:integer/null, grading, grading_threshold?:number';

/** Operations this service adds where the contract names an endpoint without defining it. */
export const assessmentAdditions: readonly Operation[] = [
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

export const assessmentOperations: readonly Operation[] = [
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
  ...op(fields, 'exam:fields', 'POST', { input: fieldsIn.updateFields, output: FIELDS_RECORD }),
  ...op(fields, 'exam:fields', 'DELETE', { input: settingsIn.examRef }),

  ...op(journeys, 'exam:journey:graph', 'GET', {
    input: graphIn.graphRef,
    output: journeyDraft(),
  }),
  ...op(journeys, 'exam:journey:graph', 'PUT', {
    input: graphIn.saveGraph,
    output: journeyDraft(', ignored?:string[]'),
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
  ...op(questions, 'question', 'POST', { input: questionIn.questionInput, output: 'question', notShown: ['input'] }),
  ...op(questions, 'question', 'DELETE', { input: questionIn.questionLookup }),
  ...op(questions, 'question:export', 'POST', { input: questionIn.questionLookup, output: 'id:string, question, url:url, valid:date' }),
  ...op(questions, 'question:id', 'GET', { input: questionIn.questionRef, output: 'question, id:string' }),
  ...op(questions, 'question:id', 'POST', { input: questionIn.setExternalId }),
];
