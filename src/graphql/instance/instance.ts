import { builder } from '../builder.ts';
import { features } from '../../services/instance/settings.service.ts';
import * as instance from '../../services/instance/instance.service.ts';

const FeatureEnum = builder.enumType('Feature', {
  values: features,
  description: 'Features switchable per instance and per user; a REST call needing one that is off answers 406.',
});

const FeatureStateType = builder.objectRef<instance.FeatureState>('FeatureState').implement({
  description: 'Whether a feature is on, and whether that comes from the user or the instance.',
  fields: (t) => ({
    feature: t.field({ type: FeatureEnum, resolve: (s) => s.feature }),
    enabled: t.exposeBoolean('enabled', { description: 'The feature is on.' }),
    source: t.exposeString('source', { description: '`user` (own switch) or `instance`.' }),
  }),
});

const CallCheckType = builder.objectRef<ReturnType<typeof instance.callCheck>>('CallCheck').implement({
  description: 'What the service understood of the call (REST test:app).',
  fields: (t) => ({
    app: t.exposeString('app', { nullable: true, description: 'The application id of the credentials.' }),
    user: t.exposeID('user', { description: 'The user the call acts as (the application owner, or the assumed user).' }),
    language: t.exposeString('language', { description: 'The language of the call (Service-Language, else the instance default).' }),
    version: t.exposeString('version', { description: 'The contract version: GraphQL is not versioned, so `default`, as REST answers when no version is chosen.' }),
    status: t.exposeBoolean('status', { description: 'Always true: the credentials were accepted.' }),
  }),
});

builder.queryField('testApp', (t) =>
  t.field({
    type: CallCheckType,
    description: 'Checks the credentials of the call: the application, the user it acts as and the language.',
    resolve: (_root, _args, ctx) => instance.callCheck(ctx),
  }),
);

builder.queryField('features', (t) =>
  t.field({
    type: [FeatureStateType],
    description: 'The effective feature switches of a user (default: the caller).',
    args: { user: t.arg.id() },
    resolve: (_root, args, ctx) => instance.userFeatureStates(ctx, args),
  }),
);

builder.mutationFields((t) => ({
  setFeature: t.field({
    type: [FeatureStateType],
    description: 'Switches a feature for the instance, or for one user (null clears the user switch). Administrators only.',
    args: { feature: t.arg({ type: FeatureEnum, required: true }), enabled: t.arg.boolean(), user: t.arg.id() },
    resolve: (_root, args, ctx) => instance.setFeature(ctx, { ...args }),
  }),
  setMaintenance: t.boolean({
    description: 'Maintenance mode: every call answers 503 until switched off. Administrators only.',
    args: { enabled: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) => instance.setMaintenance(ctx, args),
  }),
}));
