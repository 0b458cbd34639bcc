import * as results from '../../services/plays/results.service.ts';
import { requestResultsExport } from '../../services/plays/results-export.ts';
import * as certificates from '../../services/certificates/certificates.service.ts';
import type { Certificate } from '../../generated/prisma/client.ts';
import { compact, date, datetime } from '../format.ts';
import type { Handler } from './types.ts';

/** serial and expires of a certificate, each present only when it has one. */
const certificateFacts = (c: Certificate) => ({ serial: c.serial ?? undefined, expires: date(c.expiresAt) ?? undefined });

/** Results of plays: the contract reads them (the player records them through GraphQL); certificates of exam results. */
export const resultRoutes: Record<string, Handler> = {
  'GET quiz:results:play': async (ctx, args) => results.getPlayResult(ctx, args),
  'DELETE quiz:results:play': async (ctx, args) => ({ ...(await results.deletePlayResult(ctx, args)), success: true }),
  'GET quiz:results:user': async (ctx, args) => ({ results: await results.listQuizResults(ctx, args) }),
  'GET exam:results:user': async (ctx, args) => ({ results: await results.listExamResults(ctx, args) }),
  'POST exam:results:export': async (ctx, args) => {
    const r = await requestResultsExport(ctx, args);
    return { exam: r.exam.id, format: r.format, url: r.url, valid: datetime(r.valid) };
  },
  'GET exam:certificates:user': async (ctx, args) => {
    const d = await certificates.getCertificateDetails(ctx, args);
    return compact({ play: d.play.id, user: d.user, archived: d.archived, eligible: d.eligible, certified: d.certificate !== null, ...(d.certificate && certificateFacts(d.certificate)) });
  },
  'POST exam:certificates:user:download': async (ctx, args) => {
    const link = await certificates.downloadCertificate(ctx, args);
    return { play: link.play.id, user: link.user, url: link.url, valid: date(link.valid) };
  },
  'POST exam:certificates': async (ctx, args) => {
    const { exam, issued } = await certificates.issueCertificates(ctx, args);
    return { exam: exam.id, issued: issued.length, certificates: issued.map((c) => compact({ play: c.playId, user: c.userId, ...certificateFacts(c) })) };
  },
};
