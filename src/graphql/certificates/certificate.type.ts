import { builder } from '../builder.ts';
import { ExamType } from '../exams/exam.type.ts';
import { PlayType } from '../plays/play.type.ts';
import * as certificates from '../../services/certificates/certificates.service.ts';

/** Certificates of exam results: the type, `Play.certificate`, `Exam.certificates` and the mutations. */

export const CertificateType = builder.prismaObject('Certificate', {
  description: 'A certificate of an exam result, as it was issued (its user, the result and the exam read as elsewhere).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The identification string.' }),
    serial: t.exposeString('serial', { nullable: true, description: '`<prefix><number>`; null when serial numbering was off at issue.' }),
    title: t.exposeString('title', { description: "The title printed on it: the certificate title of the exam's settings, else the exam's title, at issue." }),
    grade: t.exposeString('grade', { nullable: true, description: 'The grade of the result at issue.' }),
    issued: t.expose('issuedAt', { type: 'DateTime', description: 'When it was issued.' }),
    expires: t.expose('expiresAt', { type: 'DateTime', nullable: true, description: 'When it expires (issue plus the validity months); null: never.' }),
    play: t.relation('play', { description: 'The result it certifies.' }),
    user: t.relation('user', { description: 'The certified user.' }),
    exam: t.relation('exam', { description: 'The exam.' }),
  }),
});

builder.prismaObjectFields('Play', (t) => ({
  certificate: t.relation('certificate', { nullable: true, description: 'Its certificate; null when it has none.' }),
}));

builder.prismaObjectFields('Exam', (t) => ({
  certificates: t.prismaConnection({
    type: 'Certificate',
    cursor: 'id',
    description: 'Its certificates (report permission), newest first.',
    args: { user: t.arg.id({ description: "Only this user's." }) },
    resolve: (query, exam, args, ctx) => certificates.examCertificates(ctx, exam, args, query),
  }),
}));

const CertificateLinkType = builder.objectRef<certificates.CertificateLinkView>('CertificateDownload').implement({
  description: 'A link to the PDF of a certificate, readable without credentials until `valid` (POST exam:certificates:user:download).',
  fields: (t) => ({
    certificate: t.field({ type: CertificateType, description: 'The certificate.', resolve: (link) => link.certificate }),
    url: t.exposeString('url', { description: 'The link, `BASE_URL/files/<token>`.' }),
    valid: t.expose('valid', { type: 'DateTime', description: 'The link works until this moment (the end of a UTC day).' }),
  }),
});

const IssuedCertificatesType = builder.objectRef<certificates.IssuedCertificates>('IssuedCertificates').implement({
  description: 'What issueExamCertificates issued (POST exam:certificates).',
  fields: (t) => ({
    exam: t.field({ type: ExamType, description: 'The exam.', resolve: (r) => r.exam }),
    issued: t.field({ type: [CertificateType], description: 'The certificates issued by this call, in the order of their serial numbers; empty when every qualifying result had one.', resolve: (r) => r.issued }),
  }),
});

const CertificateStatusType = builder.objectRef<certificates.CertificateDetails>('CertificateStatus').implement({
  description:
    "A user's latest certificate of an exam with its result; without one, the user's latest finished result and whether it qualifies now (REST GET exam:certificates:user).",
  fields: (t) => ({
    play: t.field({ type: PlayType, description: 'The certified result, or the latest finished one (archived ones included).', resolve: (d) => d.play }),
    user: t.exposeID('user', { description: "The user's identification string." }),
    archived: t.exposeBoolean('archived', { description: 'The result is archived.' }),
    eligible: t.exposeBoolean('eligible', { description: 'The result qualifies for a certificate now: certificates on, a preset deciding success, a valid successful result.' }),
    certified: t.boolean({ description: 'The user holds a certificate of the exam.', resolve: (d) => d.certificate !== null }),
    certificate: t.field({ type: CertificateType, nullable: true, description: 'The latest certificate; null when there is none.', resolve: (d) => d.certificate }),
  }),
});

builder.queryFields((t) => ({
  examCertificateStatus: t.field({
    type: CertificateStatusType,
    description: 'A user\'s certificate of an exam, or its latest finished result (report permission on the exam, or the user itself).',
    args: { exam: t.arg.id({ required: true, description: 'The exam.' }), user: t.arg.id({ required: true, description: 'The user.' }) },
    resolve: (_root, args, ctx) => certificates.getCertificateDetails(ctx, args),
  }),
}));

builder.mutationFields((t) => ({
  downloadCertificate: t.field({
    type: CertificateLinkType,
    description: "A link to the PDF of the user's latest certificate of the exam (report permission, or the user itself); a valid existing link is returned again.",
    args: { exam: t.arg.id({ required: true, description: 'The exam.' }), user: t.arg.id({ required: true, description: 'The user.' }) },
    resolve: (_root, args, ctx) => certificates.downloadCertificate(ctx, args),
  }),
  issueExamCertificates: t.field({
    type: IssuedCertificatesType,
    description: 'Certifies every qualifying result of the exam that has no certificate yet (control permission); a second call issues nothing new.',
    args: { exam: t.arg.id({ required: true, description: 'The exam.' }) },
    resolve: (_root, args, ctx) => certificates.issueCertificates(ctx, args),
  }),
}));
