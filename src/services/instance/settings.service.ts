import type { Db } from '../../db/client.ts';
import type { User } from '../../generated/prisma/client.ts';
import { FeatureDisabledError } from '../../errors.ts';

/** Features that can be switched per instance and per user. A call needing one that is off answers 406. */
export const features = ['journeys', 'custom_grading', 'library', 'competencies', 'short_links', 'privileged_fields'] as const;
export type Feature = (typeof features)[number];

/** Instance defaults when nothing is stored: everything on but the privileged fields. */
const defaultFeatures: Record<Feature, boolean> = {
  journeys: true,
  custom_grading: true,
  library: true,
  competencies: true,
  short_links: true,
  privileged_fields: false,
};

interface Snapshot {
  features: Record<Feature, boolean>;
  maintenance: boolean;
  activeLanguages: Set<string>;
}

/**
 * Instance settings live in the database, so every instance behind a load balancer sees the same
 * switches. They are read on the hot path of every call, so a snapshot is kept for a short time.
 */
export class InstanceSettings {
  private snapshot?: { value: Snapshot; at: number };

  constructor(
    private readonly db: Db,
    private readonly options: { maintenance: boolean; ttlMs?: number },
  ) {}

  /** The snapshot when it is fresh, without a promise: the hot path of every call. */
  fresh(): Snapshot | undefined {
    return this.snapshot && Date.now() - this.snapshot.at < (this.options.ttlMs ?? 2000) ? this.snapshot.value : undefined;
  }

  async current(): Promise<Snapshot> {
    const now = Date.now();
    if (this.snapshot && now - this.snapshot.at < (this.options.ttlMs ?? 2000)) return this.snapshot.value;
    const [rows, languages] = await Promise.all([
      this.db.instanceSetting.findMany({ where: { key: { in: ['features', 'maintenance'] } } }),
      this.db.language.findMany({ where: { active: true }, select: { code: true } }),
    ]);
    const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    const value: Snapshot = {
      features: { ...defaultFeatures, ...((stored.features as Partial<Record<Feature, boolean>>) ?? {}) },
      maintenance: this.options.maintenance || stored.maintenance === true,
      activeLanguages: new Set(languages.map((l) => l.code)),
    };
    this.snapshot = { value, at: now };
    return value;
  }

  /** Forget the snapshot after a change made by this instance. */
  invalidate(): void {
    this.snapshot = undefined;
  }

  async isEnabled(feature: Feature, user?: Pick<User, 'features'>): Promise<boolean> {
    const own = (user?.features as Partial<Record<Feature, boolean>> | null)?.[feature];
    return own ?? (await this.current()).features[feature];
  }

  async require(feature: Feature, user?: Pick<User, 'features'>): Promise<void> {
    if (!(await this.isEnabled(feature, user))) throw new FeatureDisabledError(feature.replace('_', ' '));
  }

  async set(key: 'features' | 'maintenance', value: unknown): Promise<void> {
    await this.db.instanceSetting.upsert({
      where: { key },
      create: { key, value: value as object },
      update: { value: value as object },
    });
    this.invalidate();
  }
}
