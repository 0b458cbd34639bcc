import type { Prisma, PlayAnswer } from '../../generated/prisma/client.ts';
import { recordAnswers, type AnswerToWrite } from './player-statements.ts';

interface Pending extends AnswerToWrite {
  resolve(row: PlayAnswer | undefined): void;
  reject(error: unknown): void;
}

/**
 * Writes answers as the database can take them: an answer that arrives while the database is idle
 * is written at once, alone; answers that arrive while a write is in progress wait for it and are
 * then written together, in one statement (a group commit). On exam day, when thousands of
 * examinees answer at once, each statement and each commit carries many answers instead of one,
 * which is what lets the database keep up; a quiet player waits for nothing.
 *
 * Every answer is acknowledged only once the statement that wrote it has committed. A statement
 * holds at most one answer per play, so a play's answers are written in the order they arrived
 * (TURNS moves on one question at a time, and a later response replaces an earlier one). A
 * statement that fails for one answer (its response is something the database refuses) is not
 * allowed to fail the others: its answers are written again one by one.
 */
export class AnswerWriter {
  private readonly queue: Pending[] = [];
  private writing = 0;

  constructor(
    private readonly db: Prisma.TransactionClient,
    /** Statements in progress at once (one connection's worth on the embedded database). */
    private readonly concurrency: number,
    private readonly maxBatch = 500,
  ) {}

  /** The answer as written, or undefined when a rule of the player refused it. */
  write(answer: AnswerToWrite): Promise<PlayAnswer | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...answer, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.writing < this.concurrency && this.queue.length > 0) {
      const batch = this.takeBatch();
      this.writing++;
      void this.flush(batch).finally(() => {
        this.writing--;
        this.pump();
      });
    }
  }

  /** Up to maxBatch waiting answers in order of arrival, one per play; the others keep their place. */
  private takeBatch(): Pending[] {
    const batch: Pending[] = [];
    const plays = new Set<string>();
    for (let i = 0; i < this.queue.length && batch.length < this.maxBatch; ) {
      const answer = this.queue[i]!;
      if (plays.has(answer.input.play)) {
        i++;
        continue;
      }
      plays.add(answer.input.play);
      batch.push(answer);
      this.queue.splice(i, 1);
    }
    return batch;
  }

  private async flush(batch: Pending[]): Promise<void> {
    try {
      const written = await recordAnswers(this.db, batch);
      for (const answer of batch) answer.resolve(written.get(answer.input.play));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      await Promise.all(batch.map((answer) => this.flush([answer])));
    }
  }
}
